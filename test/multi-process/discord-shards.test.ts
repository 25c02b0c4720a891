import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeDiscord } from "../fakes/discord/fake-discord.js";
import type { ChannelPayload, MessagePayload } from "../fakes/discord/payloads.js";
import { snowflakeOnShard } from "../fakes/discord/snowflake.js";
import { FakeOpenAI, type RecordedRequest } from "../fakes/fake-openai.js";
import { startChildBot, type ChildBot } from "../support/child-bot.js";
import { isAnswerTo } from "../support/discord-bot.js";
import { createTestDatabase, postgresAvailability, queryRows, type TestDatabase } from "../support/postgres.js";

/**
 * Discord sharding spread over processes (hosts): two `npm start` processes, one shard each
 * (DISCORD_SHARD_IDS, DISCORD_SHARD_COUNT), on one PostgreSQL database, against the fake
 * gateway, which sends each guild's events to the session of its shard.
 */
const availability = await postgresAvailability();
const lastQuestion = (request: RecordedRequest): string => request.body.messages.at(-1).content;

describe.skipIf(!availability.available)(
  availability.available
    ? "two Discord shard processes on one PostgreSQL database"
    : `two Discord shard processes on one PostgreSQL database (not run: ${availability.reason})`,
  () => {
    let database: TestDatabase;
    let discord: FakeDiscord;
    let model: FakeOpenAI;
    let dir: string;
    let secondGeneral: ChannelPayload;
    const bots: ChildBot[] = [];

    const env = (shard: number) => ({
      OPENAI_BASE_URL: model.url,
      OPENAI_MAX_RETRIES: "0",
      DATABASE_URL: database.url,
      DISCORD_TOKEN: discord.token,
      DISCORD_API_URL: discord.apiUrl,
      DISCORD_SHARD_IDS: String(shard),
      DISCORD_SHARD_COUNT: "2",
      INSTANCE_ID: `shard-${shard}`,
      LOG_LEVEL: "debug",
    });
    const until = async (condition: () => boolean, what: string, timeoutMs = 30_000) => {
      const deadline = Date.now() + timeoutMs;
      while (!condition()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; logs:\n${bots.map((bot) => bot.stderr().slice(-2_000)).join("\n---\n")}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    const ask = (channel: ChannelPayload, text: string) =>
      discord.dispatchMessage({
        author: discord.member,
        channelId: channel.id,
        content: `${FakeDiscord.mention(discord.bot)} ${text}`,
        mentions: [discord.bot],
      });
    const answersTo = (question: MessagePayload) => discord.calls.filter((call) => isAnswerTo(call, question));
    const instanceOf = async (guildId: string) =>
      (
        await queryRows<{ instance: string }>(
          database.url,
          `SELECT t.instance FROM turns t JOIN conversations c ON c.id = t.conversation_id WHERE c.platform = 'discord' AND c.workspace_id = $1`,
          [guildId],
        )
      ).map((row) => row.instance.split(":")[0]);

    beforeAll(async () => {
      database = await createTestDatabase("agent_bot_shards");
      // the default guild on shard 0 of 2, another on shard 1
      discord = await FakeDiscord.start({ ids: { guild: snowflakeOnShard(0, 2) } });
      secondGeneral = discord.addGuild("Second Server", { shard: 1, shardCount: 2 }).general;
      model = await FakeOpenAI.start();
      model.otherwise((request) => ({ kind: "message", content: `answer to ${lastQuestion(request)}` }));
      dir = mkdtempSync(join(tmpdir(), "agent-bot-shards-"));
      for (const shard of [0, 1]) bots.push(startChildBot(env(shard), dir));
      await until(() => bots.every((bot) => bot.stderr().includes("connected to Discord")), "both shards to connect", 60_000);
    }, 90_000);

    afterAll(async () => {
      for (const bot of bots) if (bot.process.exitCode === null && bot.process.signalCode === null) bot.process.kill("SIGTERM");
      await Promise.all(bots.map((bot) => bot.exited));
      await model?.close();
      await discord?.close();
      await database?.drop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    }, 30_000);

    it("runs one shard per process: each process receives and answers its own guilds", async () => {
      expect(discord.identifies.map((identify) => identify.shard).sort()).toEqual([
        [0, 2],
        [1, 2],
      ]);
      expect(discord.readyShards.sort()).toEqual([0, 1]);

      const onFirst = await ask(discord.general, "a question on shard 0");
      const onSecond = await ask(secondGeneral, "a question on shard 1");
      await until(() => answersTo(onFirst).length > 0 && answersTo(onSecond).length > 0, "both answers");
      expect(answersTo(onFirst).map((call) => call.body.content)).toEqual(["answer to a question on shard 0"]);
      expect(answersTo(onSecond).map((call) => call.body.content)).toEqual(["answer to a question on shard 1"]);
      expect(await instanceOf(discord.guild.id)).toEqual(["shard-0"]);
      expect(await instanceOf(secondGeneral.guild_id!)).toEqual(["shard-1"]);
    });

    it("answers a message both processes receive during a shard handover once", async () => {
      // a process on another host takes shard 1 over while the old one still runs it: both receive its guilds' events
      const taking = startChildBot({ ...env(1), INSTANCE_ID: "shard-1-new" }, dir);
      bots.push(taking);
      await until(() => taking.stderr().includes("connected to Discord"), "the new process to connect", 60_000);
      await until(() => discord.readyShards.filter((shard) => shard === 1).length === 2, "two sessions on shard 1");

      const question = await ask(secondGeneral, "seen by both processes");
      await until(() => answersTo(question).length > 0, "the answer");
      await until(() => [bots[1]!, taking].some((bot) => bot.stderr().includes("ignored a repeated delivery of a message")), "the other copy to be dropped");
      expect(answersTo(question)).toHaveLength(1);
      expect(model.chatRequests.filter((request) => lastQuestion(request) === "seen by both processes")).toHaveLength(1);
    });
  },
);

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { FakeDiscord } from "../fakes/discord/fake-discord.js";
import { FakeOpenAI, type RecordedRequest } from "../fakes/fake-openai.js";
import { FakeSlack } from "../fakes/slack/fake-slack.js";
import { appMention, eventCallback } from "../fakes/slack/payloads.js";
import { SignedSlackSender } from "../fakes/slack/signed-requests.js";
import { startChildBot } from "../support/child-bot.js";
import { isAnswerTo } from "../support/discord-bot.js";
import { freePort } from "../support/free-port.js";

/**
 * The started bot on the Node that runs the tests: one terminal, one Discord and one Slack turn
 * against the fakes. `.ci/run` runs the whole suite on Node 24 and this file again on Node 22 (the
 * minimum), where it is the smoke run: the child bots run on the same Node binary as vitest.
 */
const lastQuestion = (request: RecordedRequest): string => request.body.messages.at(-1).content;
const until = async (condition: () => boolean, what: () => string, timeoutMs = 30_000) => {
  for (const deadline = Date.now() + timeoutMs; !condition(); await new Promise((resolve) => setTimeout(resolve, 20))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what()}`);
  }
};

describe(`the started bot on Node ${process.version}`, () => {
  // biome-ignore lint/suspicious/noConfusingVoidType: a cleanup is a plain function or an async one
  const cleanups: (() => Promise<unknown> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  const setUp = async () => {
    const model = await FakeOpenAI.start();
    model.otherwise((request) => ({ kind: "message", content: `answer to ${lastQuestion(request)}` }));
    const dir = mkdtempSync(join(tmpdir(), "agent-bot-smoke-"));
    cleanups.push(
      () => model.close(),
      () => rmSync(dir, { recursive: true, force: true }),
    );
    return { model, dir, env: { OPENAI_BASE_URL: model.url, OPENAI_MAX_RETRIES: "0", DATABASE_PATH: join(dir, "bot.sqlite") } };
  };

  it("answers a piped question in the terminal and exits", async () => {
    const { dir, env } = await setUp();
    const bot = startChildBot(env, dir);
    cleanups.push(() => void bot.process.kill("SIGKILL"));
    bot.process.stdin.end("a terminal question\n");
    const { code } = await bot.exited;
    expect(bot.stdout()).toContain("bot: answer to a terminal question");
    expect(code).toBe(0);
  });

  it("answers a Discord mention and stops on SIGTERM", async () => {
    const { dir, env } = await setUp();
    const discord = await FakeDiscord.start();
    cleanups.push(() => discord.close());
    const bot = startChildBot({ ...env, DISCORD_TOKEN: discord.token, DISCORD_API_URL: discord.apiUrl, LOG_LEVEL: "debug" }, dir);
    cleanups.push(() => void bot.process.kill("SIGKILL"));
    await until(
      () => bot.stderr().includes("connected to Discord"),
      () => `the bot to connect; its log: ${bot.stderr()}`,
    );
    // A server gives back what start-up left (src/ops/idle-memory.ts) once connected, not after an idle spell.
    await until(
      () => bot.stderr().includes("gave the memory of start-up or the last turns back"),
      () => `start-up's memory release; the log: ${bot.stderr()}`,
      5_000,
    );

    const question = await discord.dispatchMessage({
      author: discord.member,
      channelId: discord.general.id,
      content: `${FakeDiscord.mention(discord.bot)} a Discord question`,
      mentions: [discord.bot],
    });
    const answer = await discord.waitFor((call) => isAnswerTo(call, question), 20_000);
    expect(answer.body.content).toBe("answer to a Discord question");

    bot.process.kill("SIGTERM");
    expect((await bot.exited).code).toBe(0);
  });

  it("answers a signed Slack mention and stops on SIGTERM", async () => {
    const { dir, env } = await setUp();
    const slack = await FakeSlack.start();
    cleanups.push(() => slack.close());
    const port = await freePort();
    const bot = startChildBot(
      { ...env, SLACK_BOT_TOKEN: slack.botToken, SLACK_SIGNING_SECRET: "smoke-secret", SLACK_API_URL: slack.apiUrl, PORT: String(port), LOG_LEVEL: "info" },
      dir,
    );
    cleanups.push(() => void bot.process.kill("SIGKILL"));
    await slack.waitFor(() => bot.stderr().includes("Slack events listening over HTTP"), { timeoutMs: 30_000, what: "the bot to start" });

    const ts = slack.nextTs();
    const sender = new SignedSlackSender(`http://127.0.0.1:${port}/slack/events`, "smoke-secret");
    const response = await sender.event(eventCallback(appMention({ user: "U1", channel: "C1", ts, text: `<@${slack.botUserId}> a Slack question` })));
    expect(response.status).toBe(200);
    await slack.waitFor(() => slack.thread("C1", ts)[0], { what: "the answer" });
    expect(slack.thread("C1", ts)[0]!.text).toBe("answer to a Slack question");

    bot.process.kill("SIGTERM");
    expect((await bot.exited).code).toBe(0);
  });
});

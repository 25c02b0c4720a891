import { afterEach, describe, expect, it } from "vitest";
import type { HistoryEntry } from "../../../src/store/history-store.js";
import { StorePruner } from "../../../src/store/pruner.js";
import { silentLogger } from "../../../src/log.js";
import { FakeDiscord } from "../../fakes/discord/fake-discord.js";
import { CallbackKind, type MessagePayload, type UserPayload } from "../../fakes/discord/payloads.js";
import { reply } from "../../fakes/fake-openai.js";
import { isAnswerTo, startDiscordBot, type DiscordBot } from "../../support/discord-bot.js";

/**
 * Issue 24 §2-3 on Discord, with the real discord.js: a channel's history on, a message found
 * 10,000 messages later with its jump URL, never another server's; deletions (one, bulk) and
 * edits reach the index and the memory windows; forget-me; retention.
 */

/** Waits for a condition, polling, at most `timeoutMs`. */
async function eventually(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error("the condition did not hold in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function command(
  bot: DiscordBot,
  user: UserPayload,
  name: string,
  subcommand: string,
  extra: { subcommandGroup?: string; options?: { name: string; value: string }[] } = {},
) {
  const interaction = await bot.discord.dispatchCommand({ user, name, subcommand, ...extra });
  const call = await bot.discord.waitFor(
    (c) => c.method === "POST" && c.path.includes(`/interactions/${interaction.id}/`) && c.body?.type === CallbackKind.ChannelMessage,
  );
  return call.body.data.content as string;
}

/** Asks the bot; the model searches the history for `query`, then answers. Resolves with the tool's result and the answer. */
async function askSearching(bot: DiscordBot, query: string): Promise<{ result: string; answer: string; question: MessagePayload }> {
  const { discord } = bot;
  const before = bot.model.chatRequests.length;
  bot.model.script(reply.toolCalls({ name: "search_history", args: { query } }), reply.text("Found it: see the link."));
  const question = await discord.dispatchMessage({
    author: discord.admin,
    content: `${FakeDiscord.mention(discord.bot)} what did we say about ${query}?`,
    mentions: [discord.bot],
  });
  const answer = await discord.waitFor((call) => isAnswerTo(call, question));
  return { result: bot.model.toolResults(before + 1)[0]!.content, answer: answer.body.content, question };
}

const searchFor = (bot: DiscordBot, text: string) =>
  bot.app.store.history.search({ platform: "discord", workspaceId: bot.discord.guild.id, channelId: bot.discord.general.id, text, limit: 10 });

describe("Discord: search over the channel's history", () => {
  let bot: DiscordBot;
  afterEach(() => bot?.close());

  it("finds a message posted 10,000 messages ago with its jump URL, never another server's; a deletion removes it everywhere", async () => {
    bot = await startDiscordBot();
    const { discord } = bot;
    expect(await command(bot, discord.member, "settings", "history", { subcommandGroup: "channel", options: [{ name: "state", value: "on" }] })).toMatch(
      /Manage Server/,
    );
    expect(await command(bot, discord.admin, "settings", "history", { subcommandGroup: "channel", options: [{ name: "state", value: "on" }] })).toMatch(
      /From now on I index/,
    );

    const target = await discord.dispatchMessage({ author: discord.member, content: "The release codename is Bluefin, decided on Monday." });
    await eventually(async () => (await searchFor(bot, "bluefin")).length === 1);
    // 10,000 messages after it; and another server's channel of the same id saying the same
    const filler: HistoryEntry[] = Array.from({ length: 10_000 }, (_, i) => ({
      platform: "discord",
      workspaceId: discord.guild.id,
      channelId: discord.general.id,
      messageId: `9${String(i).padStart(17, "0")}`,
      kind: "message",
      authorId: discord.member.id,
      authorName: "member",
      text: `chatter number ${i} about the release`,
      time: Date.now() + i,
    }));
    for (let i = 0; i < filler.length; i += 2_000) await bot.app.store.history.add(filler.slice(i, i + 2_000));
    await bot.app.store.history.add([{ ...filler[0]!, workspaceId: "another-server", messageId: "1", text: "Bluefin is the other server's secret" }]);

    const link = `https://discord.com/channels/${discord.guild.id}/${discord.general.id}/${target.id}`;
    const { result, answer } = await askSearching(bot, "release codename Bluefin");
    expect(result).toContain(link);
    expect(result).toContain("**Bluefin**");
    expect(result).not.toContain("secret");
    expect(answer).toBe("Found it: see the link.");
    // the system prompt tells the model to cite links
    expect(JSON.stringify(bot.model.chatRequests.at(-1)!.body.messages[0])).toContain("cite each one's link");

    // an edit updates the index; the deletion removes the text from it
    await discord.editMessage(discord.general.id, target.id, "The release codename is Marlin now.");
    await eventually(async () => (await searchFor(bot, "marlin")).length === 1);
    // (the question that asked about Bluefin is in the index too, as the channel's message)
    expect((await searchFor(bot, "bluefin")).map((hit) => hit.link)).not.toContain(link);
    await discord.deleteMessage(discord.general.id, target.id);
    await eventually(async () => (await searchFor(bot, "marlin")).length === 0);
    const again = await askSearching(bot, "Marlin");
    expect(again.result).toMatch(/Nothing in this channel's history matches/);

    // like every tool, it follows the channel's tool policy
    await command(bot, discord.admin, "settings", "tools", {
      subcommandGroup: "channel",
      options: [
        { name: "tool", value: "search_history" },
        { name: "state", value: "off" },
      ],
    });
    const before = bot.model.chatRequests.length;
    bot.model.script(reply.text("ok"));
    const plain = await discord.dispatchMessage({ author: discord.member, content: `${FakeDiscord.mention(discord.bot)} hi`, mentions: [discord.bot] });
    await discord.waitFor((call) => isAnswerTo(call, plain));
    expect(bot.model.toolsOffered(before)).not.toContain("search_history");
    expect(bot.model.toolsOffered(0)).toContain("search_history");
  });

  it("a deleted question's exchange leaves the index and the memory window; a bulk delete too; forget-me; history off; retention", async () => {
    bot = await startDiscordBot();
    const { discord } = bot;
    const ask = async (author: UserPayload, text: string, answer: string) => {
      bot.model.script(reply.text(answer));
      const question = await discord.dispatchMessage({ author, content: `${FakeDiscord.mention(discord.bot)} ${text}`, mentions: [discord.bot] });
      await discord.waitFor((call) => isAnswerTo(call, question));
      return question;
    };
    const secret = await ask(discord.member, "my locker code is 4417 walrus", "Noted, walrus.");
    await ask(discord.admin, "what is the plan for lunch", "Pizza.");
    await eventually(async () => (await searchFor(bot, "walrus")).length === 2);

    await discord.deleteMessage(discord.general.id, secret.id);
    await eventually(async () => (await searchFor(bot, "walrus")).length === 0);
    expect(await command(bot, discord.member, "memory", "show")).not.toContain("walrus");
    const next = await ask(discord.admin, "anything else?", "No.");
    expect(JSON.stringify(bot.model.chatRequests.at(-1)!.body.messages)).not.toContain("walrus");
    expect(JSON.stringify(bot.model.chatRequests.at(-1)!.body.messages)).toContain("what is the plan for lunch");

    // a moderator's bulk delete
    const one = await ask(discord.member, "note one: gazelle", "ok");
    const two = await ask(discord.member, "note two: gazelle", "ok");
    await eventually(async () => (await searchFor(bot, "gazelle")).length === 2);
    await discord.bulkDeleteMessages(discord.general.id, [one.id, two.id]);
    await eventually(async () => (await searchFor(bot, "gazelle")).length === 0);

    // forget-me: the member's messages and exchanges go, the admin's stay
    await command(bot, discord.admin, "settings", "history", { subcommandGroup: "channel", options: [{ name: "state", value: "on" }] });
    await discord.dispatchMessage({ author: discord.member, content: "I like okapis" });
    await discord.dispatchMessage({ author: discord.admin, content: "okapis are fine" });
    await ask(discord.member, "tell me about okapis", "Okapis are giraffids.");
    await eventually(async () => (await searchFor(bot, "okapis")).length === 4);
    expect(await command(bot, discord.member, "memory", "forget-me")).toMatch(/removed 1 indexed message\(s\) of yours and 1 of your exchanges/);
    expect((await searchFor(bot, "okapis")).map((hit) => hit.authorId)).toEqual([discord.admin.id]);
    expect(await command(bot, discord.admin, "memory", "show")).not.toMatch(/okapi/i);

    // history off drops the channel's indexed messages at once (exchanges stay)
    expect(await command(bot, discord.admin, "settings", "history", { subcommandGroup: "channel", options: [{ name: "state", value: "off" }] })).toMatch(
      /dropped the 1 message/,
    );
    expect(await searchFor(bot, "okapis")).toEqual([]);
    expect((await searchFor(bot, "lunch")).length).toBe(1);

    // retention: 91 days on, the pruner takes the index and the exchanges
    const pruner = new StorePruner(bot.app.store.retention, {
      threadRetentionDays: 30,
      history: { index: bot.app.store.history, retentionDays: 90 },
      logger: silentLogger(),
    });
    const pruned = await pruner.sweepHistory(Date.now() + 91 * 86_400_000);
    expect(pruned.indexed).toBeGreaterThan(0);
    expect(await searchFor(bot, "lunch")).toEqual([]);
    expect(await command(bot, discord.admin, "memory", "show")).toMatch(/don't remember anything/);
    expect(next).toBeDefined();
  });
});

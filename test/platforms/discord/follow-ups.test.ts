import { afterEach, describe, expect, it } from "vitest";
import { FakeDiscord } from "../../fakes/discord/fake-discord.js";
import type { MessagePayload } from "../../fakes/discord/payloads.js";
import { reply } from "../../fakes/fake-openai.js";
import { isAnswerTo, isMessagePost, startDiscordBot, type DiscordBot } from "../../support/discord-bot.js";

/** Asks a question that uses a tool, so the bot opens a thread; resolves with the question once answered. */
async function askWithTool(bot: DiscordBot): Promise<MessagePayload> {
  const { discord } = bot;
  bot.model.script(reply.toolCalls({ name: "circumference", args: { radius: 1 } }), reply.text("It is 6.28."));
  const question = await discord.dispatchMessage({
    author: discord.member,
    content: `${FakeDiscord.mention(discord.bot)} circumference of radius 1?`,
    mentions: [discord.bot],
  });
  await discord.waitFor((call) => isAnswerTo(call, question));
  return question;
}

const historyOf = (bot: DiscordBot, request: number) =>
  bot.model.chatRequests[request]!.body.messages.filter((m: any) => m.role === "user" || (m.role === "assistant" && m.content));

describe("Discord: follow-ups in the bot's threads", () => {
  let bot: DiscordBot;
  afterEach(() => bot?.close());

  it("still answers follow-ups in its thread after a restart (new client, same database)", async () => {
    bot = await startDiscordBot();
    const { discord } = bot;
    const opening = await askWithTool(bot);

    await bot.restart();
    expect(discord.identifies).toHaveLength(2);

    bot.model.script(reply.text("Still here: 12.57."));
    const followUp = await discord.dispatchMessage({ author: discord.member, channelId: opening.id, content: "radius 2 now?" });
    await discord.waitFor((call) => isAnswerTo(call, followUp));

    expect(historyOf(bot, 2).map((m: any) => m.content)).toEqual(["circumference of radius 1?", "It is 6.28.", "radius 2 now?"]);
  });

  it("ignores messages without a mention in threads it did not open", async () => {
    bot = await startDiscordBot();
    const { discord } = bot;
    const thread = await discord.createThread(discord.general.id, "someone else's", discord.member);
    bot.model.script(reply.text("Only this one."));

    await discord.dispatchMessage({ author: discord.member, channelId: thread.id, content: "talking among ourselves" });
    const question = await discord.dispatchMessage({
      author: discord.member,
      channelId: thread.id,
      content: `${FakeDiscord.mention(discord.bot)} now you`,
      mentions: [discord.bot],
    });
    await discord.waitFor((call) => isAnswerTo(call, question));

    expect(bot.model.chatRequests).toHaveLength(1);
  });
});

describe("Discord: direct messages", () => {
  let bot: DiscordBot;
  afterEach(() => bot?.close());

  it("answers a DM without a mention, the steps as plain messages before the answer", async () => {
    bot = await startDiscordBot();
    const { discord } = bot;
    const dm = discord.openDm(discord.member);
    bot.model.script(reply.toolCalls({ name: "calculator", args: { expression: "6*7" } }), reply.text("6 × 7 = 42."));

    const question = await discord.dispatchMessage({ author: discord.member, channelId: dm.id, content: "what is 6*7?" });
    await discord.waitFor((call) => isAnswerTo(call, question));

    const posts = discord.calls.filter((call) => isMessagePost(call, dm.id));
    expect(posts).toHaveLength(2);
    expect(posts[0]!.body.message_reference).toBeUndefined();
    expect(posts[0]!.body.content).toContain("calculator");
    expect(posts[1]!.body.content).toBe("6 × 7 = 42.");
    expect(discord.calls.filter((call) => call.path.endsWith("/threads"))).toEqual([]);
    expect(discord.messagesIn(dm.id).at(-1)!.content).toBe("6 × 7 = 42.");
  });

  it("ignores DMs when DISCORD_ALLOW_DMS is false", async () => {
    bot = await startDiscordBot({ DISCORD_ALLOW_DMS: "false" });
    const { discord } = bot;
    const dm = discord.openDm(discord.member);
    bot.model.script(reply.text("Answered in the server."));

    await discord.dispatchMessage({ author: discord.member, channelId: dm.id, content: "hello in private" });
    const question = await discord.dispatchMessage({ author: discord.member, content: `${FakeDiscord.mention(discord.bot)} hi`, mentions: [discord.bot] });
    await discord.waitFor((call) => isAnswerTo(call, question));

    expect(bot.model.chatRequests).toHaveLength(1);
    expect(discord.calls.filter((call) => isMessagePost(call, dm.id))).toEqual([]);
  });
});

import { afterEach, describe, expect, it } from "vitest";
import { FakeDiscord } from "../../fakes/discord/fake-discord.js";
import { GatewayIntent } from "../../fakes/discord/payloads.js";
import { reply } from "../../fakes/fake-openai.js";
import { isAnswerTo, isMessagePost, isMessageWrite, isThreadStart, startDiscordBot, type DiscordBot } from "../../support/discord-bot.js";

const lastUserMessage = (bot: DiscordBot, request: number) =>
  bot.model.chatRequests[request]!.body.messages.filter((m: any) => m.role === "user").at(-1).content;

describe("Discord: a mention starts a turn", () => {
  let bot: DiscordBot;
  afterEach(() => bot?.close());

  it("posts a quick step once, with its result, when STEP_START_DELAY_MS holds the start back (the default)", async () => {
    bot = await startDiscordBot({ STEP_START_DELAY_MS: "400" });
    const { discord } = bot;
    bot.model.script(reply.toolCalls({ name: "circumference", args: { radius: 7.81 } }), reply.text("About 49.07."));
    const question = await discord.dispatchMessage({
      author: discord.member,
      content: `${FakeDiscord.mention(discord.bot)} circumference of radius 7.81?`,
      mentions: [discord.bot],
    });
    await discord.waitFor((call) => isAnswerTo(call, question));
    await bot.app.intake.idle();

    const [thread] = discord.threadsIn(discord.general.id);
    const steps = discord.messagesIn(thread!.id);
    expect(steps).toHaveLength(1);
    expect(steps[0]!.content).toMatch(/^✅ `circumference` `\{"radius":7\.81\}` → `49\.0716772491`/);
    expect(steps[0]!.edited_timestamp).toBeNull();
    expect(discord.calls.filter((call) => call.method === "PATCH")).toHaveLength(0);
  });

  it("opens a thread on the question for the tool steps, answers with a reply, and never mass-pings", async () => {
    bot = await startDiscordBot();
    const { discord } = bot;
    bot.model.script(
      reply.toolCalls({ name: "circumference", args: { radius: 7.81 } }),
      reply.text("The circumference is about 49.07. @everyone @here <@&" + discord.adminRole.id + "> check this!"),
    );

    const question = await discord.dispatchMessage({
      author: discord.member,
      content: `${FakeDiscord.mention(discord.bot)} What is the circumference of a circle of radius 7.81?`,
      mentions: [discord.bot],
    });
    await discord.waitFor((call) => isAnswerTo(call, question));
    // the answer does not wait for the steps' thread: the turn's end does
    await bot.app.intake.idle();

    // the model got the question without the mention
    expect(lastUserMessage(bot, 0)).toBe("What is the circumference of a circle of radius 7.81?");
    // a thread was opened on the question, named after it, and holds the step, edited to its result
    const threadCall = discord.calls.find((call) => isThreadStart(call, question))!;
    expect(threadCall.body.name).toBe("What is the circumference of a circle of radius 7.81?");
    const [thread] = discord.threadsIn(discord.general.id);
    expect(thread!.id).toBe(question.id);
    const steps = discord.messagesIn(thread!.id);
    expect(steps).toHaveLength(1);
    expect(steps[0]!.content).toContain("circumference");
    expect(steps[0]!.content).toContain('{"radius":7.81}');
    expect(steps[0]!.content).toContain("49.0716772491");
    expect(steps[0]!.edited_timestamp).not.toBeNull();
    // the thread was opened before the step was posted there
    const threadPost = discord.calls.findIndex((call) => isMessagePost(call, thread!.id));
    expect(discord.calls.indexOf(threadCall)).toBeLessThan(threadPost);

    // the answer is a reply in the channel that notifies the asker and nobody else
    const posted = discord.messagesIn(discord.general.id).find((m) => m.id !== question.id)!;
    expect(posted.content).toContain("The circumference is about 49.07.");
    expect(posted.message_reference?.message_id).toBe(question.id);
    expect(posted.mention_everyone).toBe(false);
    expect(posted.mention_roles).toEqual([]);
    expect(posted.mentions.map((u) => u.id)).toEqual([discord.member.id]);
    // every message the bot wrote limited its mentions
    const writes = discord.calls.filter(isMessageWrite);
    expect(writes.length).toBeGreaterThanOrEqual(3);
    for (const write of writes) {
      expect(write.body.allowed_mentions, `${write.method} ${write.path}`).toBeDefined();
      expect(write.body.allowed_mentions.parse).toEqual([]);
    }
    // typing was shown while the turn ran
    expect(discord.calls.some((call) => call.method === "POST" && call.path === `/channels/${discord.general.id}/typing`)).toBe(true);
  });

  it("posts the answer while a slow step post is still pending, and the thread still shows each step's start then its result, in order", async () => {
    bot = await startDiscordBot({ STEP_START_DELAY_MS: "0" });
    const { discord } = bot;
    // Every post into a thread (not into #general, where the answer goes) waits until released.
    const slowThread = discord.hold({ method: "POST", path: new RegExp(`^/channels/(?!${discord.general.id}/)\\d+/messages$`) });
    bot.model.script(
      reply.toolCalls({ name: "circumference", args: { radius: 7.81 } }),
      reply.toolCalls({ name: "hypotenuse", args: { adjacent_side: 3, opposite_side: 4 } }),
      reply.text("About 49.07, and 5."),
    );

    const question = await discord.dispatchMessage({
      author: discord.member,
      content: `${FakeDiscord.mention(discord.bot)} circumference of radius 7.81, and the hypotenuse of 3 and 4?`,
      mentions: [discord.bot],
    });
    await slowThread.arrived;
    const answer = await discord.waitFor((call) => isAnswerTo(call, question));

    // the answer is in the channel while the thread still shows nothing
    expect(answer.body.content).toBe("About 49.07, and 5.");
    const [thread] = discord.threadsIn(discord.general.id);
    expect(discord.messagesIn(thread!.id)).toEqual([]);

    slowThread.release();
    await bot.app.intake.idle();
    const threadWrites = discord.calls.filter((call) => call.path.startsWith(`/channels/${thread!.id}/messages`));
    expect(threadWrites.map((call) => `${call.method} ${call.body.content.split(" → ")[0]}`)).toEqual([
      'POST 🔧 `circumference` `{"radius":7.81}` …',
      'PATCH ✅ `circumference` `{"radius":7.81}`',
      'POST 🔧 `hypotenuse` `{"adjacent_side":3,"opposite_side":4}` …',
      'PATCH ✅ `hypotenuse` `{"adjacent_side":3,"opposite_side":4}`',
    ]);
    expect(discord.messagesIn(thread!.id).map((m) => m.content)).toEqual([
      expect.stringMatching(/^✅ `circumference` .* → `49\.0716772491`/),
      expect.stringMatching(/^✅ `hypotenuse` .* → `5`/),
    ]);
  });

  it("logs in with the guilds, guild messages, message content and direct messages intents", async () => {
    bot = await startDiscordBot();
    const intents = bot.discord.identifies[0]!.intents;
    for (const intent of [GatewayIntent.Guilds, GatewayIntent.GuildMessages, GatewayIntent.MessageContent, GatewayIntent.DirectMessages]) {
      expect(intents & intent).toBe(intent);
    }
  });

  it("opens no thread when the turn uses no tool", async () => {
    bot = await startDiscordBot();
    const { discord } = bot;
    bot.model.script(reply.text("Hello Alice!"));

    const question = await discord.dispatchMessage({
      author: discord.member,
      content: `hey ${FakeDiscord.mention(discord.bot)} say hello`,
      mentions: [discord.bot],
    });
    await discord.waitFor((call) => isAnswerTo(call, question));

    expect(lastUserMessage(bot, 0)).toBe("hey say hello");
    expect(discord.calls.filter((call) => call.path.endsWith("/threads"))).toEqual([]);
    expect(discord.threadsIn(discord.general.id)).toEqual([]);
    expect(discord.messagesIn(discord.general.id).map((m) => m.content)).toEqual([question.content, "Hello Alice!"]);
  });

  it("delivers a long answer whole, in several messages within 2,000 characters, code blocks reopened", async () => {
    bot = await startDiscordBot();
    const { discord } = bot;
    const paragraph = (n: number) => `Paragraph ${n}: ${"lorem ipsum dolor sit amet ".repeat(30).trim()}.`;
    const code = ["```ts", ...Array.from({ length: 60 }, (_, i) => `const value${i} = computeSomething(${i}); // line ${i}`), "```"].join("\n");
    const long = [paragraph(1), paragraph(2), code, paragraph(3), paragraph(4), paragraph(5)].join("\n\n");
    expect(long.length).toBeGreaterThan(6_000);
    bot.model.script(reply.text(long));

    const question = await discord.dispatchMessage({
      author: discord.member,
      content: `${FakeDiscord.mention(discord.bot)} write a lot`,
      mentions: [discord.bot],
    });
    await discord.waitFor((call) => isAnswerTo(call, question));
    // the rest follows the reply as plain messages in the channel
    const parts = await waitForParts(bot, question.id, long);

    expect(parts.length).toBeGreaterThanOrEqual(4);
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(2_000);
    for (const part of parts) expect((part.match(/```/g) ?? []).length % 2).toBe(0);
    const words = (text: string) =>
      text
        .replace(/```(ts)?/g, " ")
        .split(/\s+/)
        .filter(Boolean);
    expect(words(parts.join("\n"))).toEqual(words(long));
    expect(parts.filter((part) => part.includes("```ts")).length).toBeGreaterThanOrEqual(2);
  });

  it("ignores messages from bots and webhooks, and messages that do not mention it", async () => {
    bot = await startDiscordBot();
    const { discord } = bot;
    const otherBot = discord.world.addUser("helper-bot", true);
    discord.world.addMember(discord.guild.id, otherBot.id);
    bot.model.script(reply.text("Answer to the real question."));

    await discord.dispatchMessage({ author: otherBot, content: `${FakeDiscord.mention(discord.bot)} from a bot`, mentions: [discord.bot] });
    await discord.dispatchMessage({ author: discord.bot, content: `${FakeDiscord.mention(discord.bot)} from itself`, mentions: [discord.bot] });
    await discord.dispatchMessage({ author: discord.member, content: "no mention here, bot" });
    const question = await discord.dispatchMessage({
      author: discord.member,
      content: `${FakeDiscord.mention(discord.bot)} the real question`,
      mentions: [discord.bot],
    });
    await discord.waitFor((call) => isAnswerTo(call, question));

    expect(bot.model.chatRequests).toHaveLength(1);
    expect(lastUserMessage(bot, 0)).toBe("the real question");
    expect(discord.calls.filter((call) => isMessagePost(call, discord.general.id))).toHaveLength(1);
  });

  it("a mention written in the text but absent from the payload's mentions is not a mention", async () => {
    bot = await startDiscordBot();
    const { discord } = bot;
    bot.model.script(reply.text("ok"));

    await discord.dispatchMessage({ author: discord.member, content: `quoting ${FakeDiscord.mention(discord.bot)} in a code span`, mentions: [] });
    const question = await discord.dispatchMessage({ author: discord.member, content: `${FakeDiscord.mention(discord.bot)} real`, mentions: [discord.bot] });
    await discord.waitFor((call) => isAnswerTo(call, question));

    expect(bot.model.chatRequests).toHaveLength(1);
  });

  it("keeps the steps and the answer inside a thread when the mention is already in one", async () => {
    bot = await startDiscordBot();
    const { discord } = bot;
    const thread = await discord.createThread(discord.general.id, "people talking", discord.member);
    bot.model.script(reply.toolCalls({ name: "hypotenuse", args: { adjacent: 3, opposite: 4 } }), reply.text("It is 5."));

    const question = await discord.dispatchMessage({
      author: discord.member,
      channelId: thread.id,
      content: `${FakeDiscord.mention(discord.bot)} hypotenuse of 3 and 4?`,
      mentions: [discord.bot],
    });
    await discord.waitFor((call) => isAnswerTo(call, question));

    expect(discord.calls.filter((call) => call.path.endsWith("/threads"))).toEqual([]);
    const inThread = discord.messagesIn(thread.id).filter((m) => m.author.id === discord.bot.id);
    expect(inThread.map((m) => m.content)).toEqual([expect.stringContaining("hypotenuse"), "It is 5."]);
    expect(discord.messagesIn(discord.general.id)).toEqual([]);
  });

  it("answers a question that is only a mention with a hint, without calling the model", async () => {
    bot = await startDiscordBot();
    const { discord } = bot;
    const question = await discord.dispatchMessage({ author: discord.member, content: FakeDiscord.mention(discord.bot), mentions: [discord.bot] });
    const hint = await discord.waitFor((call) => isMessagePost(call, discord.general.id));

    expect(hint.body.message_reference.message_id).toBe(question.id);
    expect(hint.body.content).toMatch(/Ask me something/);
    expect(bot.model.chatRequests).toHaveLength(0);
  });
});

async function waitForParts(bot: DiscordBot, questionId: string, expected: string): Promise<string[]> {
  const collect = () => {
    const all = bot.discord.messagesIn(bot.discord.general.id).filter((m) => m.author.id === bot.discord.bot.id);
    const start = all.findIndex((m) => m.message_reference?.message_id === questionId);
    return all.slice(start).map((m) => m.content);
  };
  const deadline = Date.now() + 5_000;
  while (
    collect()
      .join("")
      .replace(/\s|```(ts)?/g, "").length < expected.replace(/\s|```(ts)?/g, "").length &&
    Date.now() < deadline
  ) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return collect();
}

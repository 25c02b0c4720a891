import { afterEach, describe, expect, it } from "vitest";
import { FakeDiscord } from "../../fakes/discord/fake-discord.js";
import type { MessagePayload } from "../../fakes/discord/payloads.js";
import { reply } from "../../fakes/fake-openai.js";
import { discordAdapter, isAnswerTo, isThreadStart, startDiscordBot, type DiscordBot } from "../../support/discord-bot.js";
import { startTestApp } from "../../support/test-app.js";

const mentionQuestion = (bot: DiscordBot, text: string): Promise<MessagePayload> =>
  bot.discord.dispatchMessage({
    author: bot.discord.member,
    content: `${FakeDiscord.mention(bot.discord.bot)} ${text}`,
    mentions: [bot.discord.bot],
  });

describe("Discord: faults", () => {
  let bot: DiscordBot;
  afterEach(() => bot?.close());

  it("posts the steps as replies in the channel when it may not create threads (50013), and logs why", async () => {
    bot = await startDiscordBot();
    const { discord } = bot;
    discord.failNext({ method: "POST", path: /\/threads$/, status: 403, code: 50013, message: "Missing Permissions" });
    bot.model.script(reply.toolCalls({ name: "circumference", args: { radius: 3 } }), reply.text("About 18.85."));

    const question = await mentionQuestion(bot, "circumference of radius 3?");
    await discord.waitFor((call) => isAnswerTo(call, question));

    expect(discord.calls.filter((call) => isThreadStart(call, question)).map((call) => call.status)).toEqual([403]);
    expect(discord.threadsIn(discord.general.id)).toEqual([]);
    const replies = discord.messagesIn(discord.general.id).filter((m) => m.message_reference?.message_id === question.id);
    expect(replies.map((m) => m.content)).toEqual([expect.stringContaining("18.849"), "About 18.85."]);
    expect(replies[0]!.mentions).toEqual([]);
    const warning = bot.logs.lines.find((line) => /could not open a thread/.test(line.msg));
    expect(warning).toMatchObject({ err: { code: 50013, message: expect.stringContaining("code 50013") } });
  });

  it("shows a failing tool as a failed step, and the model still answers", async () => {
    bot = await startDiscordBot();
    const { discord } = bot;
    bot.model.script(reply.toolCalls({ name: "calculator", args: { expression: "1/(" } }), reply.text("That expression is incomplete."));

    const question = await mentionQuestion(bot, "compute 1/(");
    const answer = await discord.waitFor((call) => isAnswerTo(call, question));
    await bot.app.intake.idle();

    expect(answer.body.content).toBe("That expression is incomplete.");
    const [step] = discord.messagesIn(question.id);
    expect(step!.content).toMatch(/^⚠️ `calculator` `\{"expression":"1\/\("\}` failed: `.+`/);
  });

  it("survives the channel being deleted mid-turn: the answer cannot be posted, the log says so, the turn is stored", async () => {
    bot = await startDiscordBot();
    const { discord } = bot;
    bot.model.script(reply.delayed(150, reply.text("Nobody will read this.")));

    await mentionQuestion(bot, "into the void");
    await discord.deleteChannel(discord.general.id);
    await waitUntil(() => /could not post the answer/.test(bot.logs.text()));

    // (typing goes straight to REST, so that it shows in threads no longer cached: it may meet the deleted channel too)
    const refused = discord.calls.filter((call) => call.status === 404 && !call.path.endsWith("/typing"));
    expect(refused.map((call) => `${call.method} ${call.path}`)).toEqual([`GET /channels/${discord.general.id}`]);
    const warning = bot.logs.lines.find((line) => /could not post the answer/.test(line.msg));
    expect(warning!.err).toMatchObject({ code: 10003, status: 404 });
    expect(bot.test.store.db.prepare("SELECT status FROM turns").all()).toEqual([{ status: "answered" }]);
  });

  it("refuses to start with a wrong token, with a clear message that does not contain the token", async () => {
    const discord = await FakeDiscord.start();
    const test = await startTestApp({ DISCORD_TOKEN: "not-the-right-token", DISCORD_API_URL: discord.apiUrl });
    try {
      const start = discordAdapter(test.app, test.app.logger).start();
      await expect(start).rejects.toThrow(/could not log in to Discord: .*invalid token/i);
      await expect(start).rejects.not.toThrow(/not-the-right-token/);
    } finally {
      await discord.close();
      await test.close();
    }
  });

  it("answers a model failure with a short message as the reply, and the thread keeps the steps so far", async () => {
    bot = await startDiscordBot();
    const { discord } = bot;
    bot.model.script(reply.toolCalls({ name: "calculator", args: { expression: "1+1" } }), reply.status(500, "upstream exploded at 10.0.0.7"));

    const question = await mentionQuestion(bot, "what is 1+1, explained?");
    const answer = await discord.waitFor((call) => isAnswerTo(call, question));
    await bot.app.intake.idle();

    expect(answer.body.content.length).toBeLessThan(300);
    expect(answer.body.content).toMatch(/language model/);
    expect(answer.body.content).not.toMatch(/10\.0\.0\.7|exploded|Error:|\bat \S+ \(/);
    expect(discord.messagesIn(question.id).map((m) => m.content)).toEqual([expect.stringContaining("calculator")]);
    // the store stays consistent: the turn is recorded as failed and the memory holds nothing
    const turns = bot.test.store.db.prepare("SELECT status, outcome FROM turns").all();
    expect(turns).toEqual([{ status: "failed", outcome: expect.stringMatching(/^llm_/) }]);
    expect(bot.test.store.db.prepare("SELECT COUNT(*) AS n FROM messages").get()).toEqual({ n: 0 });
  });

  it("starts one turn for a message delivered twice, also when the repeat comes after a restart", async () => {
    bot = await startDiscordBot();
    const { discord } = bot;
    bot.model.script(reply.text("first answer"), reply.text("sentinel answer"));

    const question = await mentionQuestion(bot, "once please");
    await discord.redeliver(question);
    await discord.waitFor((call) => isAnswerTo(call, question));
    // a new client has no message cache, so only the stored event ids stop the repeat
    await bot.restart();
    await discord.redeliver(question);
    const sentinel = await mentionQuestion(bot, "sentinel");
    await discord.waitFor((call) => isAnswerTo(call, sentinel));

    expect(bot.model.chatRequests).toHaveLength(2);
    expect(discord.calls.filter((call) => isAnswerTo(call, question))).toHaveLength(1);
  });

  it("still answers when the question is deleted mid-turn, without the reply reference", async () => {
    bot = await startDiscordBot();
    const { discord } = bot;
    bot.model.script(reply.delayed(150, reply.text("Here you go.")));

    const question = await mentionQuestion(bot, "slow one");
    await discord.deleteMessage(question.channel_id, question.id);
    const answer = await discord.waitFor((call) => isAnswerTo(call, question));

    expect(answer.status).toBe(200);
    expect(answer.body.message_reference.fail_if_not_exists).toBe(false);
    const posted = discord.messagesIn(discord.general.id);
    expect(posted.map((m) => m.content)).toEqual(["Here you go."]);
    expect(posted[0]!.message_reference).toBeUndefined();
  });

  it("waits out a short rate limit on a post as Discord asks, and sends it once more", async () => {
    bot = await startDiscordBot();
    const { discord } = bot;
    discord.failNext({
      method: "POST",
      path: new RegExp(`^/channels/${discord.general.id}/messages$`),
      status: 429,
      headers: { "retry-after": "0.1", "x-ratelimit-scope": "user" },
      body: { message: "You are being rate limited.", retry_after: 0.1, global: false, code: 0 },
    });
    bot.model.script(reply.text("Patience pays."));

    const question = await mentionQuestion(bot, "hurry");
    const answers = await discord.waitForCount((call) => isAnswerTo(call, question), 2);

    expect(answers.map((call) => call.status)).toEqual([429, 200]);
    expect(answers[1]!.at - answers[0]!.at).toBeGreaterThanOrEqual(90);
    expect(discord.messagesIn(discord.general.id).map((m) => m.content)).toEqual([question.content, "Patience pays."]);
  });

  it("on stop, tells the asker of a running turn that it restarted, then closes the gateway", async () => {
    bot = await startDiscordBot();
    const { discord } = bot;
    bot.model.script(reply.hang());

    const question = await mentionQuestion(bot, "this will hang");
    await waitUntil(() => bot.model.chatRequests.length === 1);
    expect(discord.connectedSessions).toBe(1);
    await bot.stop();

    const answer = discord.calls.find((call) => isAnswerTo(call, question));
    expect(answer?.body.content).toMatch(/restarted/);
    await waitUntil(() => discord.connectedSessions === 0);
  });

  it("never writes the bot token or interaction tokens to the log", async () => {
    bot = await startDiscordBot();
    const { discord } = bot;
    // the interaction token expired before the answer was ready
    discord.failNext({ method: "PATCH", path: /^\/webhooks\//, status: 404, code: 10015, message: "Unknown Webhook" });
    bot.model.script(reply.text("answer that cannot be shown"));

    const interaction = await discord.dispatchCommand({ user: discord.member, name: "ask", options: [{ name: "question", value: "hi" }] });
    await discord.waitFor((call) => call.method === "PATCH" && call.path.includes(interaction.token));
    await waitUntil(() => /could not post the answer/.test(bot.logs.text()));

    expect(bot.logs.text()).not.toContain(interaction.token);
    expect(bot.logs.text()).not.toContain(discord.token);
  });
});

async function waitUntil(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("timed out waiting for a condition");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

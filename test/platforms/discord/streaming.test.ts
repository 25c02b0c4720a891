import { dbOf } from "../../support/test-app.js";
import { afterEach, describe, expect, it } from "vitest";
import { splitMessage } from "../../../src/presenter/split-message.js";
import { FakeDiscord, type RestCall } from "../../fakes/discord/fake-discord.js";
import type { MessagePayload } from "../../fakes/discord/payloads.js";
import { reply } from "../../fakes/fake-openai.js";
import { isAnswerTo, isMessageWrite, startDiscordBot, type DiscordBot } from "../../support/discord-bot.js";
import { longAnswer, words } from "../../support/answers.js";

/**
 * Streaming on Discord, asserted on what the fake Discord received and when: the answer is a reply
 * that appears with the model's first text and is edited in place, never more often than
 * STREAM_EDIT_INTERVAL_MS, and ends as exactly the messages the answer would have had unstreamed.
 */
const INTERVAL_MS = 300;
/** Arrival times at the fake can be a little closer than send times (one call may wait in the network longer). */
const ARRIVAL_SLACK_MS = 30;

const sentence = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(" ");
/** The answer in pieces of one word (the spaces with them), as a model streams it. */
const piecesOf = (text: string) => text.split(/(?<= )/);

async function ask(bot: DiscordBot, text: string): Promise<MessagePayload> {
  const { discord } = bot;
  return discord.dispatchMessage({ author: discord.member, content: `${FakeDiscord.mention(discord.bot)} ${text}`, mentions: [discord.bot] });
}

/** The answer's messages as users see them now: the reply to the question and the bot's messages after it. */
function answerMessages(bot: DiscordBot, question: MessagePayload): MessagePayload[] {
  const after = bot.discord.messagesIn(question.channel_id).filter((m) => BigInt(m.id) > BigInt(question.id));
  return after.filter((m) => m.author.id === bot.discord.bot.id);
}

const gaps = (calls: RestCall[]) => calls.slice(1).map((call, i) => call.at - calls[i]!.at);

describe("Discord: streamed answers", () => {
  let bot: DiscordBot;
  afterEach(() => bot?.close());

  it("shows the first text before the model has finished, edits the reply at most once per interval, and writes nothing after the turn", async () => {
    bot = await startDiscordBot({ STREAM_EDIT_INTERVAL_MS: String(INTERVAL_MS) });
    const answer = sentence(40);
    bot.model.script(reply.streamed(piecesOf(answer), { delayMs: 40 }));

    const question = await ask(bot, "talk to me");
    const post = await bot.discord.waitFor((call) => isAnswerTo(call, question));
    await bot.app.intake.idle();
    const writesAtEnd = bot.discord.calls.filter(isMessageWrite).length;
    await new Promise((resolve) => setTimeout(resolve, INTERVAL_MS * 3));

    const [message] = answerMessages(bot, question);
    const edits = bot.discord.calls.filter((call) => call.method === "PATCH" && call.path === `/channels/${question.channel_id}/messages/${message!.id}`);
    const modelDone = bot.model.chatRequests[0]!.chunksAt.at(-1)!;
    expect(post.at).toBeLessThan(modelDone);
    expect(post.body.content.length).toBeLessThan(answer.length);
    expect(edits.length).toBeGreaterThanOrEqual(2);
    for (const gap of gaps([post, ...edits])) expect(gap).toBeGreaterThanOrEqual(INTERVAL_MS - ARRIVAL_SLACK_MS);
    // each state grows the one before; the last is the whole answer
    const states = [post, ...edits].map((call) => call.body.content as string);
    states.slice(1).forEach((state, i) => expect(state.startsWith(states[i]!)).toBe(true));
    expect(message!.content).toBe(answer);
    // every write says who may be pinged: the asker, and nobody else
    for (const call of [post, ...edits]) expect(call.body.allowed_mentions).toEqual({ parse: [], users: [bot.discord.member.id], replied_user: true });
    // nothing at all after the turn's end
    expect(bot.discord.calls.filter(isMessageWrite)).toHaveLength(writesAtEnd);
    expect(bot.model.chatRequests[0]!.body.stream_options).toEqual({ include_usage: true });
  });

  it("ends a long answer with code blocks as exactly the messages it has unstreamed", async () => {
    bot = await startDiscordBot({ STREAM_EDIT_INTERVAL_MS: "100" });
    const long = longAnswer();
    const pieces = long.match(/[\s\S]{1,80}/g)!;
    bot.model.script(reply.streamed(pieces, { delayMs: 5 }));

    const question = await ask(bot, "write a lot");
    await bot.discord.waitFor((call) => isAnswerTo(call, question));
    await bot.app.intake.idle();

    const shown = answerMessages(bot, question).map((m) => m.content);
    expect(shown).toEqual(splitMessage(long, 2_000));
    expect(shown.length).toBeGreaterThan(2);
    expect(words(shown.join("\n"))).toEqual(words(long));
    // a message was started before the model finished: the text went on in a new message while it came
    const modelDone = bot.model.chatRequests[0]!.chunksAt.at(-1)!;
    const posts = bot.discord.calls.filter((call) => call.method === "POST" && call.path === `/channels/${question.channel_id}/messages`);
    expect(posts.filter((call) => call.at < modelDone).length).toBeGreaterThanOrEqual(2);
  });

  it("waits out a 429 on an edit as Discord asks and loses no text", async () => {
    bot = await startDiscordBot({ STREAM_EDIT_INTERVAL_MS: "100" });
    const answer = sentence(60);
    bot.model.script(reply.streamed(piecesOf(answer), { delayMs: 20 }));
    bot.discord.failNext({
      method: "PATCH",
      path: /^\/channels\/\d+\/messages\/\d+$/,
      status: 429,
      headers: { "retry-after": "0.5", "x-ratelimit-scope": "user" },
      body: { message: "You are being rate limited.", retry_after: 0.5, global: false, code: 0 },
    });

    const question = await ask(bot, "go on");
    await bot.discord.waitFor((call) => isAnswerTo(call, question));
    await bot.app.intake.idle();

    const [message] = answerMessages(bot, question);
    const edits = bot.discord.calls.filter((call) => call.method === "PATCH" && call.path.endsWith(`/${message!.id}`));
    const limited = edits.findIndex((call) => call.status === 429);
    expect(limited).toBeGreaterThanOrEqual(0);
    expect(edits[limited + 1]!.at - edits[limited]!.at).toBeGreaterThanOrEqual(500 - ARRIVAL_SLACK_MS);
    expect(message!.content).toBe(answer);
    expect(bot.logs.lines.filter((line) => line.level >= 50)).toEqual([]);
  });

  it("ends an answer the model broke off with the part shown and a note why, and remembers nothing", async () => {
    bot = await startDiscordBot({ STREAM_EDIT_INTERVAL_MS: "100" });
    const pieces = piecesOf(sentence(30));
    bot.model.script(reply.streamed(pieces, { delayMs: 20, breakAfter: 12 }));

    const question = await ask(bot, "tell me everything");
    await bot.discord.waitFor((call) => isAnswerTo(call, question));
    await bot.app.intake.idle();

    const [message, ...more] = answerMessages(bot, question);
    expect(more).toEqual([]);
    expect(message!.content).toBe(
      `${pieces.slice(0, 12).join("").trim()}\n\n⚠️ _The answer stopped here._ The language model stopped answering part-way through. Please try again in a moment.`,
    );
    const conversation = { platform: "discord", workspaceId: bot.discord.guild.id, channelId: question.channel_id };
    expect(await bot.app.store.conversations.window(conversation, 5, 10_000)).toEqual([]);
    const turn = dbOf(bot.app).prepare("SELECT status, outcome FROM turns").get();
    expect(turn).toEqual({ status: "failed", outcome: "llm_interrupted" });
  });

  it("streams /ask into the deferred reply", async () => {
    bot = await startDiscordBot({ STREAM_EDIT_INTERVAL_MS: "150" });
    const { discord } = bot;
    const answer = sentence(30);
    bot.model.script(reply.streamed(piecesOf(answer), { delayMs: 30 }));

    const interaction = await discord.dispatchCommand({ user: discord.member, name: "ask", options: [{ name: "question", value: "stream please" }] });
    const original = `/webhooks/${discord.world.application.id}/${interaction.token}/messages/@original`;
    await discord.waitFor((call) => call.method === "PATCH" && call.path === original && call.body.content === answer);
    await bot.app.intake.idle();

    const edits = discord.calls.filter((call) => call.method === "PATCH" && call.path === original);
    expect(edits.length).toBeGreaterThanOrEqual(2);
    expect(edits[0]!.at).toBeLessThan(bot.model.chatRequests[0]!.chunksAt.at(-1)!);
    for (const gap of gaps(edits)) expect(gap).toBeGreaterThanOrEqual(150 - ARRIVAL_SLACK_MS);
    // the reply itself holds the answer; nothing else was posted for it
    expect(discord.calls.filter((call) => call.method === "POST" && call.path.endsWith("/messages"))).toEqual([]);
  });

  it("with STREAM_ANSWERS=false asks without streaming and posts the answer once", async () => {
    bot = await startDiscordBot({ STREAM_ANSWERS: "false" });
    bot.model.script(reply.streamed(piecesOf(sentence(20)), { delayMs: 10 }));

    const question = await ask(bot, "no streaming");
    await bot.discord.waitFor((call) => isAnswerTo(call, question));
    await bot.app.intake.idle();

    expect(bot.model.chatRequests[0]!.body.stream).toBe(false);
    expect(bot.discord.calls.filter((call) => call.method === "PATCH")).toEqual([]);
    expect(answerMessages(bot, question).map((m) => m.content)).toEqual([sentence(20)]);
  });
});

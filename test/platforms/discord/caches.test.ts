import { Sweepers, type Client } from "discord.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FakeDiscord } from "../../fakes/discord/fake-discord.js";
import type { MessagePayload } from "../../fakes/discord/payloads.js";
import { reply } from "../../fakes/fake-openai.js";
import { isAnswerTo, startDiscordBot, type DiscordBot } from "../../support/discord-bot.js";

const HOUR_MS = 60 * 60_000;

async function waitUntil(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("timed out waiting for a condition");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The adapter's discord.js Client (the adapter keeps it to itself). */
const clientOf = (bot: DiscordBot): Client => (bot.adapter as unknown as { client: Client }).client;

/** Messages in discord.js's caches, in all channels and threads it knows, and the most in one of them. */
function cachedMessages(client: Client): { total: number; most: number } {
  const sizes = [...client.channels.cache.values()].flatMap((channel) => (channel.isTextBased() ? [channel.messages.cache.size] : []));
  return { total: sizes.reduce((a, b) => a + b, 0), most: Math.max(0, ...sizes) };
}

const cachedThreads = (client: Client) => [...client.channels.cache.values()].filter((channel) => channel.isThread()).length;

/**
 * Runs the thread sweep the client is configured with, as its interval would, `laterMs` from now
 * (only Date is moved: the gateway and the HTTP clients keep their real timers).
 */
function sweepThreadsLater(client: Client, laterMs: number): void {
  const settings = client.options.sweepers?.threads as { filter?: () => unknown; lifetime?: number } | undefined;
  vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + laterMs });
  try {
    // without a filter of its own, discord.js sweeps archived threads past their lifetime
    const filter = settings?.filter ? settings.filter() : settings?.lifetime !== undefined ? Sweepers.archivedThreadSweepFilter(settings.lifetime)() : null;
    if (typeof filter === "function") client.sweepers.sweepThreads(filter as Parameters<Client["sweepers"]["sweepThreads"]>[0]);
  } finally {
    vi.useRealTimers();
  }
}

/** A question that uses a tool (so the bot opens a thread on it for the steps), answered. */
async function askWithTool(bot: DiscordBot, radius: number): Promise<MessagePayload> {
  const { discord } = bot;
  bot.model.script(reply.toolCalls({ name: "circumference", args: { radius } }), reply.text(`Radius ${radius}: done.`));
  const question = await discord.dispatchMessage({
    author: discord.member,
    content: `${FakeDiscord.mention(discord.bot)} circumference of radius ${radius}?`,
    mentions: [discord.bot],
  });
  await discord.waitFor((call) => isAnswerTo(call, question));
  return question;
}

describe("Discord: what discord.js keeps in memory", () => {
  let bot: DiscordBot;
  afterEach(() => bot?.close());

  it("keeps a few messages per channel over many turns, and drops the threads once idle", async () => {
    bot = await startDiscordBot({ RATE_LIMIT_PER_USER: "1000" });
    const client = clientOf(bot);
    const turns = 40;
    for (let radius = 1; radius <= turns; radius++) await askWithTool(bot, radius);
    await bot.app.intake.idle();

    // every turn left its question and answer in #general and its steps in a thread of its own
    expect(bot.discord.threadsIn(bot.discord.general.id)).toHaveLength(turns);
    const messages = cachedMessages(client);
    expect(messages.most).toBeLessThanOrEqual(5);
    expect(messages.total).toBeLessThanOrEqual(5 * client.channels.cache.size);

    sweepThreadsLater(client, HOUR_MS);
    expect(cachedThreads(client)).toBe(0);
    expect(cachedMessages(client).total).toBeLessThanOrEqual(5);
  });

  it("lets discord.js drop the rate-limit handler of each thread's routes within a minute of its last request", async () => {
    bot = await startDiscordBot({ RATE_LIMIT_PER_USER: "1000" });
    const client = clientOf(bot);
    const before = client.rest.handlers.size;
    const turns = 12;
    for (let radius = 1; radius <= turns; radius++) await askWithTool(bot, radius);
    await bot.app.intake.idle();

    // one handler per thread the steps were posted in, at least
    expect(client.rest.handlers.size - before).toBeGreaterThanOrEqual(turns);
    expect(client.rest.options.handlerSweepInterval).toBeLessThanOrEqual(60_000);
    // what discord.js's sweep removes when its interval comes: every handler with nothing queued or limited
    const idle = [...client.rest.handlers.values()].filter((handler) => handler.inactive).length;
    expect(idle).toBe(client.rest.handlers.size);
  });

  it("keeps only the 100 most recently active threads when there are more, however recent", async () => {
    bot = await startDiscordBot();
    const client = clientOf(bot);
    const threads = [];
    for (let i = 0; i < 120; i++) threads.push(await bot.discord.createThread(bot.discord.general.id, `thread ${i}`, bot.discord.member));
    await waitUntil(() => cachedThreads(client) === 120);

    sweepThreadsLater(client, 0);

    expect(cachedThreads(client)).toBe(100);
    // the newest stay
    expect(client.channels.cache.has(threads.at(-1)!.id)).toBe(true);
    expect(client.channels.cache.has(threads[0]!.id)).toBe(false);
  });

  it("answers a follow-up in its thread after the thread left the cache, with the thread's history", async () => {
    bot = await startDiscordBot();
    const client = clientOf(bot);
    const opening = await askWithTool(bot, 1);
    await bot.app.intake.idle();
    sweepThreadsLater(client, HOUR_MS);
    expect(client.channels.cache.has(opening.id)).toBe(false);

    // no mention: only the bot's memory of its own thread makes this a question for it
    bot.model.script(reply.text("Radius 2: 12.57."));
    const followUp = await bot.discord.dispatchMessage({ author: bot.discord.member, channelId: opening.id, content: "and radius 2?" });
    const answer = await bot.discord.waitFor((call) => isAnswerTo(call, followUp));

    expect(answer.status).toBe(200);
    const history = bot.model.chatRequests.at(-1)!.body.messages.filter((m: any) => m.role === "user" || (m.role === "assistant" && m.content));
    expect(history.map((m: any) => m.content)).toEqual(["circumference of radius 1?", "Radius 1: done.", "and radius 2?"]);
    // it answered in the thread (no thread of its own opened on the follow-up)
    expect(bot.discord.calls.filter((call) => call.path === `/channels/${opening.id}/messages/${followUp.id}/threads`)).toEqual([]);
  });

  it("reads a slash command in a thread that left the cache as the thread's, under its channel's settings", async () => {
    bot = await startDiscordBot();
    const { discord } = bot;
    const client = clientOf(bot);
    const opening = await askWithTool(bot, 1);
    await bot.app.intake.idle();
    sweepThreadsLater(client, HOUR_MS);
    expect(client.channels.cache.has(opening.id)).toBe(false);

    const interaction = await discord.dispatchCommand({
      user: discord.admin,
      name: "settings",
      subcommandGroup: "channel",
      subcommand: "show",
      channelId: opening.id,
    });
    const callback = await discord.callbackOf(interaction);

    // a thread follows its channel's settings: the command speaks of #general, not of the thread
    expect(callback.body.data.content).toContain(`<#${discord.general.id}>`);
    expect(callback.body.data.content).not.toContain(`<#${opening.id}>`);
  });
});

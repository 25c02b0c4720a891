import { afterEach, describe, expect, it } from "vitest";
import { FakeDiscord } from "../../fakes/discord/fake-discord.js";
import type { MessagePayload } from "../../fakes/discord/payloads.js";
import { reply } from "../../fakes/fake-openai.js";
import { isAnswerTo, startDiscordBot, type DiscordBot } from "../../support/discord-bot.js";

const mentionQuestion = (bot: DiscordBot, text: string): Promise<MessagePayload> =>
  bot.discord.dispatchMessage({ author: bot.discord.member, content: `${FakeDiscord.mention(bot.discord.bot)} ${text}`, mentions: [bot.discord.bot] });

/** Discord's answer to a rate-limited request: 429, with how long to wait in the header and the body. */
const rateLimited = (bot: DiscordBot, seconds: number, times = 1) =>
  bot.discord.failNext({
    method: "POST",
    path: new RegExp(`^/channels/${bot.discord.general.id}/messages$`),
    status: 429,
    times,
    headers: { "retry-after": String(seconds), "x-ratelimit-scope": "user" },
    body: { message: "You are being rate limited.", retry_after: seconds, global: false, code: 0 },
  });

async function waitUntil(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("timed out waiting for a condition");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("Discord: rate-limited posts", () => {
  let bot: DiscordBot;
  afterEach(() => bot?.close());

  it("does not wait an hour for a post: logs the answer as not delivered, and answers the channel's next question", async () => {
    bot = await startDiscordBot();
    const { discord } = bot;
    rateLimited(bot, 3600);
    bot.model.script(reply.text("Nobody saw this."), reply.text("Second answer."));

    const first = await mentionQuestion(bot, "first");
    await waitUntil(() => /could not post the answer/.test(bot.logs.text()));
    const second = await mentionQuestion(bot, "second");
    const answer = await discord.waitFor((call) => isAnswerTo(call, second));

    expect(answer.status).toBe(200);
    expect(discord.calls.filter((call) => isAnswerTo(call, first)).map((call) => call.status)).toEqual([429]);
    expect(discord.messagesIn(discord.general.id).map((m) => m.content)).toEqual([first.content, second.content, "Second answer."]);
    // the log names the turn whose answer its asker never saw, and why
    const [firstTurn] = bot.test.store.db.prepare("SELECT id FROM turns ORDER BY started_at").all() as { id: string }[];
    const warning = bot.logs.lines.find((line) => /could not post the answer/.test(line.msg));
    expect(warning).toMatchObject({ turnId: firstTurn!.id, err: { message: expect.stringMatching(/rate-limited .*retry after 3600 s/) } });
  });

  it("tries a post Discord keeps rate-limiting three times, then gives up", async () => {
    bot = await startDiscordBot();
    const { discord } = bot;
    rateLimited(bot, 0.05, 10);
    bot.model.script(reply.text("Persistence has limits."));

    const question = await mentionQuestion(bot, "again and again");
    await waitUntil(() => /could not post the answer/.test(bot.logs.text()));

    expect(discord.calls.filter((call) => isAnswerTo(call, question)).map((call) => call.status)).toEqual([429, 429, 429]);
    expect(discord.messagesIn(discord.general.id).map((m) => m.content)).toEqual([question.content]);
  });
});

import { afterEach, describe, expect, it } from "vitest";
import { FakeDiscord } from "../../fakes/discord/fake-discord.js";
import type { UserPayload } from "../../fakes/discord/payloads.js";
import type { RecordedRequest } from "../../fakes/fake-openai.js";
import { isAnswerTo, isMessagePost, startDiscordBot, type DiscordBot } from "../../support/discord-bot.js";

const isSummary = (req: RecordedRequest) => String(req.body.messages[0]?.content ?? "").startsWith("You keep the running summary of a group chat");
const NOTE = "I keep a summary of earlier messages here — `/memory show`";
async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(condition()).toBe(true);
}
const nameOf = (user: UserPayload) => user.global_name ?? user.username;

describe("Discord: the summary of what left the memory window", () => {
  let bot: DiscordBot;
  afterEach(() => bot?.close());

  it("summarizes with the speakers' names, says so once in the channel, and cites identifiers by their jump URL", async () => {
    bot = await startDiscordBot({ MEMORY_SUMMARY: "on", MEMORY_SUMMARY_BATCH: "1", MEMORY_WINDOW: "2", RATE_LIMIT_PER_USER: "100" });
    const { discord } = bot;
    bot.model.otherwise((req) =>
      isSummary(req)
        ? { kind: "message", content: "- Decisions: ship on Thursday (Mona)." }
        : { kind: "message", content: `answer to ${req.body.messages.at(-1).content}` },
    );
    const speakers = [discord.member, discord.admin, discord.moderator];
    const texts = [
      "who owns the release?",
      "the checklist is at https://example.com/checklist and takes 20 min",
      "let's ship on 2026-12-03",
      "ok",
      "what did we decide?",
    ];
    const questions = [];
    for (const [i, text] of texts.entries()) {
      const question = await discord.dispatchMessage({
        author: speakers[i % 3]!,
        content: `${FakeDiscord.mention(discord.bot)} ${text}`,
        mentions: [discord.bot],
      });
      await discord.waitFor((call) => isAnswerTo(call, question));
      // The summary starts once the answer was shown, a moment after the platform got it: wait for its call (a window of 2 drops one exchange a turn from the third).
      await until(() => bot.model.chatRequests.filter(isSummary).length >= i - 1);
      await bot.app.summaries.idle();
      questions.push(question);
    }

    const summaries = bot.model.chatRequests.filter(isSummary);
    expect(summaries).toHaveLength(3);
    const asked = String(summaries[0]!.body.messages[1].content);
    expect(asked).toContain(`${nameOf(discord.member)}: who owns the release?`);
    expect(String(summaries[1]!.body.messages[1].content)).toContain(`${nameOf(discord.admin)}: the checklist is at https://example.com/checklist`);

    // Said once in the channel, after the first summary.
    await discord.waitFor((call) => isMessagePost(call, discord.general.id) && call.body?.content === NOTE);
    expect(discord.calls.filter((call) => isMessagePost(call, discord.general.id) && call.body?.content === NOTE)).toHaveLength(1);

    // The last question's prompt: the summary, then the identifiers with the jump URL of the message they came from.
    const last = bot.model.chatRequests.filter((req) => !isSummary(req)).at(-1)!;
    const memory = String(last.body.messages[1].content);
    expect(memory).toContain("- Decisions: ship on Thursday (Mona).");
    const jump = `https://discord.com/channels/${discord.guild.id}/${discord.general.id}/${questions[1]!.id}`;
    expect(memory).toContain(`- https://example.com/checklist (${nameOf(discord.admin)}, ${jump})`);
    expect(memory).toContain(`- 20 min (${nameOf(discord.admin)}, ${jump})`);
  });

  it("rebuilds a summary without a deleted message: the next prompt has neither its text nor its identifiers", async () => {
    bot = await startDiscordBot({ MEMORY_SUMMARY: "on", MEMORY_SUMMARY_BATCH: "1", MEMORY_WINDOW: "1", RATE_LIMIT_PER_USER: "100" });
    const { discord } = bot;
    // The fake summarizer keeps every line it is given: whatever a summary was made from shows in it.
    bot.model.otherwise((req) =>
      isSummary(req)
        ? {
            kind: "message",
            content: String(req.body.messages[1].content)
              .split("\n")
              .filter((line) => line.startsWith("["))
              .join("\n"),
          }
        : { kind: "message", content: "noted" },
    );
    let asked = 0;
    const ask = async (author: UserPayload, text: string) => {
      const question = await discord.dispatchMessage({ author, content: `${FakeDiscord.mention(discord.bot)} ${text}`, mentions: [discord.bot] });
      await discord.waitFor((call) => isAnswerTo(call, question));
      // From the second turn on, each drops one exchange out of a window of one: one summary call each.
      asked++;
      await until(() => bot.model.chatRequests.filter(isSummary).length === Math.max(0, asked - 1));
      await bot.app.summaries.idle();
      return question;
    };
    const secret = await ask(discord.member, "my locker code is 4417 and the key is at https://example.com/walrus");
    await ask(discord.admin, "the launch is on 2026-12-03");
    await ask(discord.moderator, "ok");
    await ask(discord.admin, "anything else?");
    const before = String(bot.model.chatRequests.filter((req) => !isSummary(req)).at(-1)!.body.messages[1].content);
    expect(before).toContain("4417");
    expect(before).toContain("https://example.com/walrus");

    const summaries = bot.model.chatRequests.filter(isSummary).length;
    await discord.deleteMessage(discord.general.id, secret.id);
    // The rebuild: one summary call, in the background, from what is left.
    await until(() => bot.model.chatRequests.filter(isSummary).length > summaries);
    await bot.app.summaries.idle();
    const rebuild = String(bot.model.chatRequests.filter(isSummary).at(-1)!.body.messages[1].content);
    expect(rebuild).toContain("Previous summary:\n(none yet)");
    expect(rebuild).toContain("the launch is on 2026-12-03");
    expect(rebuild).not.toContain("4417");

    const question = await discord.dispatchMessage({
      author: discord.moderator,
      content: `${FakeDiscord.mention(discord.bot)} what do you remember?`,
      mentions: [discord.bot],
    });
    await discord.waitFor((call) => isAnswerTo(call, question));
    const after = JSON.stringify(bot.model.chatRequests.filter((req) => !isSummary(req)).at(-1)!.body.messages);
    expect(after).toContain("the launch is on 2026-12-03");
    expect(after).not.toContain("4417");
    expect(after).not.toContain("walrus");
  });
});

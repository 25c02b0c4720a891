import { describe, expect } from "vitest";
import { botTest as it } from "../support/started-bots.js";
import { FakeDiscord } from "../fakes/discord/fake-discord.js";
import { reply } from "../fakes/fake-openai.js";
import { isMessagePost } from "../support/discord-bot.js";

/** 100,000 characters in paragraphs of words, as a runaway model writes them. */
const HUGE = Array.from({ length: 1_000 }, (_, i) => `Paragraph ${i}: ${"lorem ipsum dolor sit amet ".repeat(3).trim()}.`).join("\n\n");

describe("a 100,000-character answer", () => {
  it("is at most five Discord messages, and the whole answer comes as a file", async ({ startDiscord }) => {
    const discordBot = await startDiscord();
    const { discord } = discordBot;
    discordBot.model.script(reply.text(HUGE));
    await discord.dispatchMessage({ author: discord.member, content: `${FakeDiscord.mention(discord.bot)} write a lot`, mentions: [discord.bot] });
    const withFile = await discord.waitFor((call) => isMessagePost(call, discord.general.id) && call.files.length > 0, 10_000);

    const posts = discord.calls.filter((call) => isMessagePost(call, discord.general.id));
    expect(posts.length).toBeLessThanOrEqual(5);
    expect(withFile.files[0]).toMatchObject({ name: "answer.md" });
    expect(withFile.files[0]!.text).toBe(HUGE);
    expect(withFile.body.content).toMatch(/whole answer is in the attached file/);
  });

  it("is at most five Slack messages in the thread, and the whole answer comes as a file there", async ({ startSlack }) => {
    const slack = await startSlack();
    slack.slack.addUser({ id: "U1", name: "alice" });
    slack.model.script(reply.text(HUGE));
    const ts = slack.slack.nextTs();
    await slack.mention({ user: "U1", channel: "C1", ts, text: "write a lot" });
    await slack.slack.waitFor(() => slack.slack.files.length === 1, { what: "the answer as a file" });
    await slack.idle();

    expect(slack.slack.thread("C1", ts).length).toBeLessThanOrEqual(5);
    expect(slack.slack.files[0]).toMatchObject({ name: "answer.md", channel: "C1", threadTs: ts });
    expect(slack.slack.files[0]!.text).toBe(HUGE);
    expect(slack.slack.files[0]!.note).toMatch(/whole answer is in the attached file/);
  });
});

import { describe, expect } from "vitest";
import { botTest as it } from "../support/started-bots.js";
import { FakeDiscord } from "../fakes/discord/fake-discord.js";
import { reply } from "../fakes/fake-openai.js";
import { isAnswerTo } from "../support/discord-bot.js";

/** A tool name a model made up to ping a channel, a user group and a masked link, then 3,000 more characters. */
const HOSTILE_NAME = `<!channel> <!subteam^S123|@everyone> <https://evil.example|click> ${"x".repeat(3_000)}`;

describe("a tool name the model invented", () => {
  it("is shown on Slack escaped and shortened: it pings nobody and links nowhere", async ({ startSlack }) => {
    const slack = await startSlack();
    slack.slack.addUser({ id: "U1", name: "alice" });
    slack.model.script(reply.toolCalls({ name: HOSTILE_NAME, args: {} }), reply.text("Done."));
    const ts = slack.slack.nextTs();
    await slack.mention({ user: "U1", channel: "C1", ts, text: "go" });
    await slack.slack.waitFor(() => slack.slack.thread("C1", ts).some((m) => m.text === "Done."), { what: "the answer" });
    await slack.idle();

    const step = slack.slack.thread("C1", ts)[0]!;
    expect(step.text).toMatch(/^⚠️ `/);
    for (const version of step.versions) {
      expect(version).not.toMatch(/<!|<https?:/);
      expect(version.length).toBeLessThan(2_000);
    }
  });

  it("is shown on Discord shortened, so both step posts are accepted", async ({ startDiscord }) => {
    const discordBot = await startDiscord({ STEP_START_DELAY_MS: "0" });
    const { discord } = discordBot;
    discordBot.model.script(reply.toolCalls({ name: HOSTILE_NAME, args: {} }), reply.text("Done."));
    const question = await discord.dispatchMessage({ author: discord.member, content: `${FakeDiscord.mention(discord.bot)} go`, mentions: [discord.bot] });
    await discord.waitFor((call) => isAnswerTo(call, question));
    // the answer does not wait for the steps' thread: the turn's end does
    await discordBot.app.intake.idle();

    const stepWrites = discord.calls.filter((call) => call.path.startsWith(`/channels/${question.id}/messages`));
    expect(stepWrites.map((call) => call.status)).toEqual([200, 200]);
    expect(stepWrites.every((call) => call.body.content.length <= 2_000)).toBe(true);
  });
});

import { afterEach, describe, expect, it } from "vitest";
import { FakeDiscord } from "../../fakes/discord/fake-discord.js";
import { CallbackKind, MessageFlag, type MessagePayload, type UserPayload } from "../../fakes/discord/payloads.js";
import { reply } from "../../fakes/fake-openai.js";
import { isAnswerTo, isMessageWrite, startDiscordBot, type DiscordBot } from "../../support/discord-bot.js";
import { dbOf } from "../../support/test-app.js";

/** The 👍 / 👎 row under a message, as the bot left it. */
const feedbackRow = (message: MessagePayload) => (message.components as any[]).find((row) => row.components?.[0]?.custom_id?.startsWith("feedback:"));

describe("Discord: feedback buttons under answers", () => {
  let bot: DiscordBot;
  afterEach(() => bot?.close());

  /** A press on the message's 👍 (0) or 👎 (1), resolving with what the presser alone was told. */
  async function press(user: UserPayload, message: MessagePayload, which: 0 | 1): Promise<string> {
    const interaction = await bot.discord.pressButton({ user, message, customId: feedbackRow(message).components[which].custom_id });
    const callback = await bot.discord.callbackOf(interaction);
    expect(callback.body.type).toBe(CallbackKind.ChannelMessage);
    expect(callback.body.data.flags & MessageFlag.Ephemeral).toBe(MessageFlag.Ephemeral);
    return callback.body.data.content;
  }

  it("puts 👍 and 👎 under a mention's answer; a press is counted once per person, a second press changes it, and /usage shows the counts", async () => {
    bot = await startDiscordBot();
    const { discord } = bot;
    bot.model.script(reply.text("Paris."));
    const question = await discord.dispatchMessage({
      author: discord.member,
      content: `${FakeDiscord.mention(discord.bot)} capital of France?`,
      mentions: [discord.bot],
    });
    await discord.waitFor((call) => isMessageWrite(call) && call.body?.components?.length > 0);
    await bot.app.intake.idle();

    const answer = discord.messagesIn(question.channel_id).find((m) => m.content === "Paris.")!;
    const row = feedbackRow(answer);
    expect(row.components.map((b: any) => [b.type, b.style, b.emoji?.name])).toEqual([
      [2, 2, "👍"],
      [2, 2, "👎"],
    ]);
    const turn = dbOf(bot.app).prepare("SELECT id, model FROM turns").get() as { id: string; model: string };
    expect(row.components[0].custom_id).toBe(`feedback:${turn.id}:up`);

    expect(await press(discord.member, answer, 0)).toBe("👍 Thanks, your feedback on this answer was counted.");
    expect(await press(discord.member, answer, 0)).toBe("👍 Already counted: your feedback on this answer is 👍.");
    expect(await press(discord.member, answer, 1)).toBe("👎 Changed: your feedback on this answer is now 👎.");
    expect(await press(discord.admin, answer, 0)).toBe("👍 Thanks, your feedback on this answer was counted.");

    const votes = dbOf(bot.app).prepare("SELECT user_id, vote, changes FROM turn_feedback ORDER BY user_id").all();
    expect(votes).toEqual(
      [
        { user_id: discord.admin.id, vote: "up", changes: 0 },
        { user_id: discord.member.id, vote: "down", changes: 1 },
      ].sort((a, b) => a.user_id.localeCompare(b.user_id)),
    );

    const usage = await discord.dispatchCommand({ user: discord.admin, name: "usage" });
    const shown = (await discord.callbackOf(usage)).body.data.content as string;
    expect(shown).toContain(`Feedback by model: \`${turn.model}\` 👍 1 👎 1`);
    expect(shown).toContain(`Feedback by channel: <#${question.channel_id}> 👍 1 👎 1`);
  });

  it("puts them under the answer of /ask too (the deferred reply), and never under a failure", async () => {
    bot = await startDiscordBot({ STREAM_ANSWERS: "false" });
    const { discord } = bot;
    bot.model.script(reply.text("4."));
    const asked = await discord.dispatchCommand({ user: discord.member, name: "ask", options: [{ name: "question", value: "2+2?" }] });
    const edit = await discord.waitFor(
      (call) => call.method === "PATCH" && call.path.endsWith(`${asked.token}/messages/@original`) && call.body.content === "4.",
    );
    expect(edit.body.components[0].components.map((b: any) => b.emoji?.name)).toEqual(["👍", "👎"]);

    bot.model.script(reply.status(400, "the model refused"));
    const failed = await discord.dispatchMessage({ author: discord.member, content: `${FakeDiscord.mention(discord.bot)} again?`, mentions: [discord.bot] });
    await discord.waitFor((call) => isAnswerTo(call, failed));
    await bot.app.intake.idle();
    const failure = discord.messagesIn(failed.channel_id).find((m) => m.message_reference?.message_id === failed.id)!;
    expect(failure.content).toMatch(/^⚠️/);
    expect(failure.components).toEqual([]);
  });
});

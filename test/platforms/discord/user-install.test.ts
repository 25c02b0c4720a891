import { afterEach, describe, expect, it } from "vitest";
import { registerCommands } from "../../../src/platforms/discord/commands/registration.js";
import type { RestCall } from "../../fakes/discord/fake-discord.js";
import { CallbackKind, type ChannelPayload } from "../../fakes/discord/payloads.js";
import type { InteractionRecord } from "../../fakes/discord/world.js";
import { reply } from "../../fakes/fake-openai.js";
import { fileAnswer, PNG_BYTES } from "../../fakes/file-host.js";
import { startDiscordBot, type DiscordBot } from "../../support/discord-bot.js";
import { dbOf } from "../../support/test-app.js";

/**
 * The app installed to a user (issue 27 §3): /ask in a server the bot is not a member of answers
 * through the interaction alone: the deferred reply, follow-ups (five at most, then the whole
 * answer as a file), the steps listed in the answer, in a workspace of the user's own.
 */
describe("Discord: the app installed to a user", () => {
  let bot: DiscordBot;
  afterEach(() => bot?.close());

  const webhook = (interaction: InteractionRecord) => `/webhooks/${bot.discord.world.application.id}/${interaction.token}`;
  const original = (interaction: InteractionRecord) => (call: RestCall) =>
    call.method === "PATCH" && call.path === `${webhook(interaction)}/messages/@original`;
  const followUps = (interaction: InteractionRecord) => bot.discord.calls.filter((call) => call.method === "POST" && call.path === webhook(interaction));
  /** Every call the bot made with its own token into the server it is not in (refused there). */
  const intoServer = (channel: ChannelPayload) => bot.discord.calls.filter((call) => call.path.startsWith(`/channels/${channel.id}`));

  async function ask(channel: ChannelPayload, question: string, extra: { name: string; value: string; attachment?: Record<string, unknown> }[] = []) {
    const interaction = await bot.discord.dispatchCommand({
      user: bot.discord.member,
      channelId: channel.id,
      name: "ask",
      options: [{ name: "question", value: question }, ...extra],
    });
    expect((await bot.discord.callbackOf(interaction)).body.type).toBe(CallbackKind.DeferredChannelMessage);
    return interaction;
  }

  it("registers /ask for server and user installs, in servers, the bot's DMs and private channels; the admin commands for servers only", async () => {
    bot = await startDiscordBot();
    await registerCommands({ token: bot.discord.token, apiUrl: bot.discord.apiUrl });
    const byName = Object.fromEntries((bot.discord.commands.get("global") as any[]).map((c) => [c.name, c]));
    expect(byName.ask).toMatchObject({ integration_types: [0, 1], contexts: [0, 1, 2] });
    expect(byName.ask.options.map((o: any) => [o.name, o.type, o.required])).toEqual([
      ["question", 3, true],
      ["image", 11, false],
    ]);
    for (const name of ["tools", "settings", "usage", "schedule", "memory"]) expect(byName[name].integration_types).toEqual([0]);
  });

  it("answers in a server the bot is not in through the interaction, the steps listed above the answer, in the user's own workspace", async () => {
    bot = await startDiscordBot();
    const { general } = bot.discord.addServerWithoutBot("elsewhere");
    bot.model.script(reply.toolCalls({ name: "circumference", args: { radius: 2 } }), reply.text("About 12.57."));

    const interaction = await ask(general, "circumference of radius 2?");
    const answer = await bot.discord.waitFor((call) => original(interaction)(call) && call.body?.components?.length > 0);
    await bot.app.intake.idle();

    expect(answer.body.content).toMatch(/^- ✅ `circumference` `\{"radius":2\}` → `12\.566\d*`\n\nAbout 12\.57\.$/);
    expect(answer.body.components[0].components.map((b: any) => b.emoji?.name)).toEqual(["👍", "👎"]);
    // Nothing went to the server's channels with the bot's token: no thread, no steps, no typing.
    expect(intoServer(general)).toEqual([]);
    expect(followUps(interaction)).toEqual([]);
    const conversations = dbOf(bot.app).prepare("SELECT platform, workspace_id AS workspace, channel_id AS channel FROM conversations").all();
    expect(conversations).toEqual([{ platform: "discord", workspace: `user:${bot.discord.member.id}`, channel: general.id }]);
    // 👍 under it counts for the asker's own workspace.
    const shown = bot.discord.messagesIn(general.id).find((m) => m.content.endsWith("About 12.57."))!;
    const press = await bot.discord.pressButton({ user: bot.discord.member, message: shown, customId: answer.body.components[0].components[0].custom_id });
    expect((await bot.discord.callbackOf(press)).body.data.content).toBe("👍 Thanks, your feedback on this answer was counted.");
    const used = await bot.app.store.usageReports.userTokensSince(
      { platform: "discord", workspaceId: `user:${bot.discord.member.id}` },
      bot.discord.member.id,
      0,
    );
    expect(used).toBeGreaterThan(0);
  });

  it("sends a long answer's further parts as follow-ups, and past five follow-ups the whole answer as a file", async () => {
    bot = await startDiscordBot({ STREAM_ANSWERS: "false" });
    const { general } = bot.discord.addServerWithoutBot("elsewhere");
    const paragraph = (n: number) => `Paragraph ${n}: ${"words ".repeat(300).trim()}`;
    const three = [1, 2, 3].map(paragraph).join("\n\n");
    const ten = Array.from({ length: 10 }, (_, i) => paragraph(i + 1)).join("\n\n");
    bot.model.script(reply.text(three), reply.text(ten));

    const first = await ask(general, "three parts");
    await bot.discord.waitFor(original(first));
    await bot.discord.waitForCount((call) => call.method === "POST" && call.path === webhook(first), 2);
    await bot.app.intake.idle();
    expect(followUps(first).map((call) => call.body.content.slice(0, 12))).toEqual(["Paragraph 2:", "Paragraph 3:"]);

    const second = await ask(general, "ten parts");
    await bot.discord.waitFor(original(second));
    await bot.discord.waitForCount((call) => call.method === "POST" && call.path === webhook(second), 5);
    await bot.app.intake.idle();
    const sent = followUps(second);
    expect(sent).toHaveLength(5);
    expect(sent.slice(0, 4).map((call) => call.files.length)).toEqual([0, 0, 0, 0]);
    expect(sent[4]!.files.map((file) => file.name)).toEqual(["answer.md"]);
    expect(sent[4]!.files[0]!.text).toBe(ten);
    expect(intoServer(general)).toEqual([]);
  });

  it("shows the model the image given with the command's attachment option", async () => {
    bot = await startDiscordBot();
    const { general } = bot.discord.addServerWithoutBot("elsewhere");
    const image = bot.discord.attachment("chart.png", fileAnswer.bytes(PNG_BYTES, "image/png"), { contentType: "image/png" });
    bot.model.script(reply.text("A chart."));

    const interaction = await ask(general, "what is this?", [{ name: "image", value: "", attachment: image }]);
    await bot.discord.waitFor((call) => original(interaction)(call) && call.body?.content === "A chart.");
    expect(bot.model.question(0)).toEqual({
      text: "what is this?\n[image: chart.png, 70 bytes — attached as image 1]",
      images: [{ mediaType: "image/png", bytes: PNG_BYTES }],
    });
  });
});

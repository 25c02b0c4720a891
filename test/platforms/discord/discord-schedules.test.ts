import { afterEach, describe, expect, it } from "vitest";
import type { RestCall } from "../../fakes/discord/fake-discord.js";
import type { UserPayload } from "../../fakes/discord/payloads.js";
import type { InteractionRecord } from "../../fakes/discord/world.js";
import { reply } from "../../fakes/fake-openai.js";
import { isAnswerTo, startDiscordBot, type DiscordBot } from "../../support/discord-bot.js";
import { purgeTool } from "../../support/purge-tool.js";

/** Scheduled tasks with the real discord.js client against the fake Discord (issue 26). */
const isCallback = (call: RestCall, interaction: InteractionRecord) =>
  call.method === "POST" && call.path === `/interactions/${interaction.id}/${interaction.token}/callback`;

async function schedule(bot: DiscordBot, user: UserPayload, subcommand: string, options: { name: string; value: string }[] = []): Promise<string> {
  const interaction = await bot.discord.dispatchCommand({ user, name: "schedule", subcommand, options });
  const call = await bot.discord.waitFor((c) => isCallback(c, interaction));
  return call.body.data.content as string;
}

describe("Discord: /schedule", () => {
  let bot: DiscordBot;
  afterEach(() => bot?.close());

  it("runs a task 2 seconds away as a new post with its steps in a thread; a follow-up there continues the run's conversation", async () => {
    bot = await startDiscordBot();
    const { discord } = bot;
    bot.model.script(reply.toolCalls({ name: "circumference", args: { radius: 2 } }), reply.text("About 12.57."));

    const added = await schedule(bot, discord.admin, "add", [
      { name: "when", value: "in 2 seconds" },
      { name: "task", value: "circumference for radius 2?" },
    ]);
    expect(added).toMatch(/^Scheduled `[0-9a-f]{8}` \(once, UTC\): circumference for radius 2\?\nNext: /);
    const id = /`([0-9a-f]{8})`/.exec(added)?.[1];

    const post = await discord.waitFor(
      (call) => call.method === "POST" && call.path === `/channels/${discord.general.id}/messages` && String(call.body?.content).startsWith("⏰"),
      15_000,
    );
    expect(post.body.content).toBe(`⏰ Scheduled task \`${id}\` by <@${discord.admin.id}>: circumference for radius 2?`);
    const header = discord.messagesIn(discord.general.id).find((message) => message.content.startsWith("⏰"))!;
    await discord.waitFor((call) => isAnswerTo(call, header), 15_000);
    await bot.app.intake.idle();
    const [thread] = discord.threadsIn(discord.general.id);
    expect(thread?.id).toBe(header.id);
    expect(discord.messagesIn(thread!.id).map((message) => message.content)).toEqual([expect.stringContaining("circumference")]);
    // In the channel (after the command's own reply): the run's post, then its answer replying to it.
    expect(
      discord
        .messagesIn(discord.general.id)
        .map((message) => message.content)
        .slice(-2),
    ).toEqual([post.body.content, "About 12.57."]);

    bot.model.script(reply.text("About 18.85."));
    const followUp = await discord.dispatchMessage({ author: discord.admin, channelId: thread!.id, content: "and radius 3?" });
    await discord.waitFor((call) => isAnswerTo(call, followUp), 15_000);
    const history = bot.model.chatRequests[2]!.body.messages.filter((m: any) => m.role === "user" || (m.role === "assistant" && m.content));
    expect(history.map((m: any) => m.content)).toEqual(["circumference for radius 2?", "About 12.57.", "and radius 3?"]);

    const runs = await schedule(bot, discord.member, "history", [{ name: "id", value: id! }]);
    expect(runs).toMatch(/· ok · \d+ tokens · /);
  });

  it("refuses a member without `settings schedules members`, and a cron more frequent than the minimum interval", async () => {
    bot = await startDiscordBot();
    const { discord } = bot;
    const refused = await schedule(bot, discord.member, "add", [
      { name: "when", value: "every weekday at 9" },
      { name: "task", value: "Post the news" },
    ]);
    expect(refused).toContain("Only admins can create scheduled tasks here");
    const often = await schedule(bot, discord.admin, "add", [
      { name: "when", value: "* * * * *" },
      { name: "task", value: "Check the deploy" },
    ]);
    expect(often).toContain("would run every 1 minutes; recurring tasks may run at most once every 5 minutes");
  });

  it("asks for approval in a run as in any turn: the creator presses Approve in the run's thread, and the tool runs", async () => {
    const { purge, ran } = purgeTool();
    bot = await startDiscordBot({ DEFAULT_TOOLS: "purge" }, { extraTools: [purge] });
    const { discord } = bot;
    await bot.app.access.setApprovalRequired({ platform: "discord", workspaceId: discord.guild.id }, "purge", true, "test");
    bot.model.script(reply.toolCalls({ name: "purge", args: { cache: "builds" } }), reply.text("Purged."));

    await schedule(bot, discord.admin, "add", [
      { name: "when", value: "in 1 second" },
      { name: "task", value: "purge the builds cache" },
    ]);
    const request = await discord.waitFor((call) => call.method === "POST" && call.body?.components?.length > 0, 15_000);
    const header = discord.messagesIn(discord.general.id).find((message) => message.content.startsWith("⏰"))!;
    expect(request.path).toBe(`/channels/${header.id}/messages`);
    expect(ran).toEqual([]);
    const message = discord.messagesIn(header.id).find((m) => m.components.length > 0)!;
    const press = await discord.pressButton({ user: discord.admin, message, customId: request.body.components[0].components[0].custom_id });
    expect((await discord.callbackOf(press)).body.data.content).toMatch(/^✅ Approved by `bob`: `purge`/);
    await discord.waitFor((call) => call.body?.content === "Purged.", 15_000);
    expect(ran).toEqual(["builds"]);
  });
});

import { describe, expect } from "vitest";
import { botTest as it } from "../../support/started-bots.js";
import { FakeDiscord } from "../../fakes/discord/fake-discord.js";
import { CallbackKind, MessageFlag } from "../../fakes/discord/payloads.js";
import { reply } from "../../fakes/fake-openai.js";
import { purgeTool } from "../../support/purge-tool.js";

describe("Discord: approval buttons", () => {
  it("posts Approve and Deny as message components in the steps' thread, pinging nobody, and answers the press with UPDATE_MESSAGE", async ({
    startDiscord,
  }) => {
    const { purge, ran } = purgeTool();
    const bot = await startDiscord({ DEFAULT_TOOLS: "purge" }, { extraTools: [purge] });
    const { discord } = bot;
    await bot.app.access.setApprovalRequired({ platform: "discord", workspaceId: discord.guild.id }, "purge", true, "test");
    bot.model.script(reply.toolCalls({ name: "purge", args: { cache: "@everyone" } }), reply.text("Purged."));

    const question = await discord.dispatchMessage({
      author: discord.member,
      content: `${FakeDiscord.mention(discord.bot)} purge it`,
      mentions: [discord.bot],
    });
    const post = await discord.waitFor((call) => call.method === "POST" && call.body?.components?.length > 0);

    expect(post.path).toBe(`/channels/${question.id}/messages`);
    expect(post.body.allowed_mentions).toEqual({ parse: [], replied_user: false });
    const [row] = post.body.components;
    expect(row.type).toBe(1);
    expect(row.components.map((b: any) => [b.type, b.style, b.label])).toEqual([
      [2, 3, "Approve"],
      [2, 4, "Deny"],
    ]);
    const message = discord.messagesIn(question.id).find((m) => m.components.length > 0)!;
    expect(message.mention_everyone).toBe(false);

    const press = await discord.pressButton({ user: discord.member, message, customId: row.components[0].custom_id });
    const callback = await discord.callbackOf(press);

    expect(callback.body.type).toBe(CallbackKind.UpdateMessage);
    expect(callback.body.data.components).toEqual([]);
    expect(callback.body.data.content).toMatch(/^✅ Approved by `alice`: `purge`/);
    await discord.waitFor((call) => call.body?.content === "Purged.");
    expect(ran).toEqual(["@everyone"]);

    // Pressed again from a client that still shows the buttons: told privately, nothing runs again.
    const late = await discord.pressButton({ user: discord.admin, message, customId: row.components[1].custom_id });
    const lateCallback = await discord.callbackOf(late);
    expect(lateCallback.body.type).toBe(CallbackKind.ChannelMessage);
    expect(lateCallback.body.data.flags & MessageFlag.Ephemeral).toBe(MessageFlag.Ephemeral);
    expect(lateCallback.body.data.content).toBe("This request was already decided.");
    expect(ran).toEqual(["@everyone"]);
  });
});

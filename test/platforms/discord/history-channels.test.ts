import { afterEach, describe, expect, it } from "vitest";
import type { HistoryEntry } from "../../../src/store/history-store.js";
import { FakeDiscord } from "../../fakes/discord/fake-discord.js";
import type { ChannelPayload, UserPayload } from "../../fakes/discord/payloads.js";
import { reply } from "../../fakes/fake-openai.js";
import { isAnswerTo, startDiscordBot, type DiscordBot } from "../../support/discord-bot.js";

/**
 * Issue 24 §2 on Discord, with the real discord.js: search_history's `channel:` searches another
 * channel only if the asker's View Channel permission there allows it (the channel's overwrites
 * for their roles), never another server's channel, never from a direct message.
 */
describe("Discord: searching another channel's history", () => {
  let bot: DiscordBot;
  afterEach(() => bot?.close());

  it("searches a channel the member can view; refuses one hidden from them, another server's, and any from a DM", async () => {
    let secret!: ChannelPayload;
    let second!: ChannelPayload;
    let elsewhere!: ChannelPayload;
    bot = await startDiscordBot((discord) => {
      second = discord.world.addTextChannel(discord.guild.id, "second");
      secret = discord.world.addTextChannel(discord.guild.id, "secret");
      // #secret: only the admin role sees it
      discord.world.restrictChannel(secret.id, { roles: [discord.adminRole.id] });
      const other = discord.world.addGuild("Other Server", discord.member.id);
      discord.world.addMember(other.id, discord.member.id);
      elsewhere = discord.world.addTextChannel(other.id, "elsewhere");
      return { DISCORD_ALLOW_DMS: "true", RATE_LIMIT_PER_USER: "100" };
    });
    const { discord } = bot;
    const said = (channel: ChannelPayload, text: string, n: number): HistoryEntry => ({
      platform: "discord",
      workspaceId: channel.guild_id!,
      channelId: channel.id,
      messageId: `8${String(n).padStart(17, "0")}`,
      kind: "message",
      authorId: discord.admin.id,
      authorName: "bob",
      text,
      link: `https://discord.com/channels/${channel.guild_id}/${channel.id}/${n}`,
      time: Date.now(),
    });
    await bot.app.store.history.add([
      said(second, "the team picnic is on Friday at the lake", 1),
      said(secret, "the acquisition budget is 40k, keep it quiet", 2),
      said(elsewhere, "the acquisition of the other server", 3),
    ]);

    const ask = async (author: UserPayload, channel: string, channelId = discord.general.id) => {
      const before = bot.model.chatRequests.length;
      bot.model.script(reply.toolCalls({ name: "search_history", args: { query: "acquisition picnic", channel } }), reply.text("done"));
      const mentions = channelId === discord.general.id ? [discord.bot] : [];
      const question = await discord.dispatchMessage({ author, channelId, content: `${FakeDiscord.mention(discord.bot)} look it up`, mentions });
      await discord.waitFor((call) => isAnswerTo(call, question));
      return bot.model.toolResults(before + 1)[0]!.content;
    };

    // a channel every member sees, by name or by mention
    const picnic = await ask(discord.member, "#second");
    expect(picnic).toContain("from #second's history");
    expect(picnic).toContain("**picnic**");
    expect(await ask(discord.member, `<#${second.id}>`)).toContain("**picnic**");

    // #secret hides from the member: refused, its text never read; the admin's role sees it
    const refused = await ask(discord.member, `<#${secret.id}>`);
    expect(refused).toMatch(/cannot read that channel/);
    expect(refused).not.toContain("40k");
    expect(await ask(discord.member, "secret")).toMatch(/cannot read that channel/);
    expect(await ask(discord.admin, `<#${secret.id}>`)).toContain("budget is 40k");

    // another server's channel, though the member is in both: not this server's
    const other = await ask(discord.member, `<#${elsewhere.id}>`);
    expect(other).toMatch(/no such channel in this workspace/);
    expect(other).not.toContain("other server");

    // a direct message searches only itself
    const dm = discord.openDm(discord.member);
    const fromDm = await ask(discord.member, `<#${second.id}>`, dm.id);
    expect(fromDm).toMatch(/Only this channel's history/);
    expect(fromDm).not.toContain("picnic");
  });
});

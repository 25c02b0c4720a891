import { afterEach, describe, expect, it } from "vitest";
import { CallbackKind, type UserPayload } from "../../fakes/discord/payloads.js";
import { isMessagePost, startDiscordBot, type DiscordBot } from "../../support/discord-bot.js";

/** Waits for a condition, polling, at most `timeoutMs`. */
async function eventually(check: () => Promise<boolean> | boolean, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error("the condition did not hold in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Issue 24 §2 on Discord, with the real discord.js: `/settings channel history backfill DAYS`
 * pages through the channel's earlier messages (GET /channels/{id}/messages?before=), indexes
 * them with their jump URLs, posts its progress in the channel, and after a restart goes on from
 * the last page it wrote.
 */
describe("Discord: a channel's history backfill", () => {
  let bot: DiscordBot;
  afterEach(() => bot?.close());

  async function command(user: UserPayload, options: { name: string; value: string | number }[]) {
    const interaction = await bot.discord.dispatchCommand({ user, name: "settings", subcommandGroup: "channel", subcommand: "history", options });
    const call = await bot.discord.waitFor(
      (c) => c.method === "POST" && c.path.includes(`/interactions/${interaction.id}/`) && c.body?.type === CallbackKind.ChannelMessage,
    );
    return call.body.data.content as string;
  }

  const search = (text: string) =>
    bot.app.store.history.search({ platform: "discord", workspaceId: bot.discord.guild.id, channelId: bot.discord.general.id, text, limit: 10 });
  const posts = () => bot.discord.calls.filter((call) => isMessagePost(call, bot.discord.general.id)).map((call) => String(call.body?.content ?? ""));

  it("reads 350 earlier messages page by page with their links, reports progress, and resumes after a restart", async () => {
    bot = await startDiscordBot({ RATE_LIMIT_PER_USER: "100" }, { backfillPacing: { pageIntervalMs: 0, progressEveryPages: 2 } });
    const { discord } = bot;
    // 350 messages posted before the bot was there, one a minute; one of them from a bot
    const seeded = discord.seedHistory(discord.general.id, 350, (i) => ({
      author: i === 300 ? discord.bot : discord.member,
      content: i === 10 ? "the vendor contract number is ZX-9911" : i === 300 ? "bot chatter" : `old note ${i} about lunch`,
    }));

    expect(
      await command(discord.member, [
        { name: "state", value: "backfill" },
        { name: "days", value: 1 },
      ]),
    ).toMatch(/Manage Server/);
    expect(
      await command(discord.admin, [
        { name: "state", value: "backfill" },
        { name: "days", value: 1 },
      ]),
    ).toMatch(/History is off/);
    await command(discord.admin, [{ name: "state", value: "on" }]);

    // the third page (before the 200th newest message: the commands' answers are the channel's newest) waits: the process restarts meanwhile
    const newest = [...discord.world.channelMessages(discord.general.id).keys()].sort((a, b) => (BigInt(b) > BigInt(a) ? 1 : -1));
    const third = discord.hold({ method: "GET", path: new RegExp(`^/channels/${discord.general.id}/messages$`), query: { before: newest[199]! } });
    expect(
      await command(discord.admin, [
        { name: "state", value: "backfill" },
        { name: "days", value: 1 },
      ]),
    ).toMatch(/reading the last 1 day/);
    await third.arrived;
    await eventually(
      async () => (await bot.app.store.backfills.get({ platform: "discord", workspaceId: discord.guild.id, channelId: discord.general.id }))?.read === 196,
    );
    expect(posts().some((text) => /History backfill: 196 message\(s\) read so far/.test(text))).toBe(true);
    // the old process lets go of it at shutdown though its page is in flight; the new one resumes from the cursor
    await bot.restart();
    third.release();

    await eventually(() => posts().some((text) => text.startsWith("History backfill done")));
    await bot.app.backfills.idle();
    expect(posts().some((text) => /Resuming the history backfill here \(196 message\(s\) read so far\)/.test(text))).toBe(true);
    expect(posts().find((text) => text.startsWith("History backfill done"))).toMatch(/349 earlier message\(s\)/);
    // the pages: 100 each, before= the oldest of the last; the third read twice at most (it was in flight), none again after
    const pages = discord.calls.filter((call) => call.method === "GET" && call.path === `/channels/${discord.general.id}/messages`);
    expect(pages.map((call) => call.query.before ?? "").filter((before) => before === "")).toHaveLength(1);
    expect(pages.length).toBeLessThanOrEqual(5);

    const [hit] = await search("ZX-9911");
    expect(hit).toMatchObject({
      authorId: discord.member.id,
      link: `https://discord.com/channels/${discord.guild.id}/${discord.general.id}/${seeded[10]!.id}`,
    });
    expect(await search("chatter")).toEqual([]);
    expect((await search("lunch")).length).toBe(10);
  });
});

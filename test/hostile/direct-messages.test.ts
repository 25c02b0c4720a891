import { afterEach, describe, expect, it } from "vitest";
import { FakeDiscord } from "../fakes/discord/fake-discord.js";
import type { FakeGuild } from "../fakes/discord/world.js";
import { reply } from "../fakes/fake-openai.js";
import { isAnswerTo, startDiscordBot, type DiscordBot } from "../support/discord-bot.js";

describe("Discord direct messages keep the servers' rules", () => {
  let bot: DiscordBot;
  afterEach(() => bot?.close());

  it("does not answer in a DM a user the admins of a server they share with the bot ignore", async () => {
    bot = await startDiscordBot();
    const { discord } = bot;
    bot.model.otherwise(reply.text("hello"));
    await bot.app.store.workspaceSettings.set({ platform: "discord", workspaceId: discord.guild.id }, "ignoredUsers", [discord.member.id], "an admin");
    const dm = discord.openDm(discord.member);
    await discord.dispatchMessage({ author: discord.member, channelId: dm.id, content: "answer me here then" });
    // another user's DM is answered: the first one was looked at and dropped, not lost in a queue
    const other = discord.openDm(discord.moderator);
    const question = await discord.dispatchMessage({ author: discord.moderator, channelId: other.id, content: "hi" });
    await discord.waitFor((call) => isAnswerTo(call, question));

    expect(bot.model.chatRequests).toHaveLength(1);
    expect(discord.messagesIn(dm.id).filter((m) => m.author.id === discord.bot.id)).toEqual([]);
  });

  /** A server with the bot whose members are its owner (the moderator) and the bot: not alice. */
  const withServerElsewhere = () => {
    let elsewhere!: FakeGuild;
    const env = (discord: FakeDiscord) => {
      elsewhere = discord.world.addGuild("Elsewhere", discord.moderator.id);
      discord.world.addMember(elsewhere.id, discord.moderator.id);
      discord.world.addTextChannel(elsewhere.id, "general");
      return {};
    };
    return { env, elsewhere: () => elsewhere };
  };

  it("answers a DM of a user that a server they are not in ignores: its admins cannot silence them", async () => {
    const server = withServerElsewhere();
    bot = await startDiscordBot(server.env);
    const { discord } = bot;
    bot.model.otherwise(reply.text("hello"));
    await bot.app.store.workspaceSettings.set({ platform: "discord", workspaceId: server.elsewhere().id }, "ignoredUsers", [discord.member.id], "its owner");
    const dm = discord.openDm(discord.member);
    const question = await discord.dispatchMessage({ author: discord.member, channelId: dm.id, content: "can you hear me?" });

    expect((await discord.waitFor((call) => isAnswerTo(call, question))).body.content).toBe("hello");
    // Discord was asked, and said alice is no member there
    expect(discord.calls.some((call) => call.method === "GET" && call.path === `/guilds/${server.elsewhere().id}/members/${discord.member.id}`)).toBe(true);
  });

  it("follows the list of a server the user joined after the bot started, asking Discord when its cache does not know them", async () => {
    const server = withServerElsewhere();
    bot = await startDiscordBot(server.env);
    const { discord } = bot;
    bot.model.otherwise(reply.text("hello"));
    discord.world.addMember(server.elsewhere().id, discord.member.id);
    await bot.app.store.workspaceSettings.set({ platform: "discord", workspaceId: server.elsewhere().id }, "ignoredUsers", [discord.member.id], "its owner");
    const dm = discord.openDm(discord.member);
    await discord.dispatchMessage({ author: discord.member, channelId: dm.id, content: "answer me" });
    await discord.dispatchMessage({ author: discord.member, channelId: dm.id, content: "answer me now" });
    const other = discord.openDm(discord.moderator);
    const question = await discord.dispatchMessage({ author: discord.moderator, channelId: other.id, content: "hi" });
    await discord.waitFor((call) => isAnswerTo(call, question));
    await bot.app.intake.idle();

    expect(bot.model.chatRequests).toHaveLength(1);
    expect(discord.messagesIn(dm.id).filter((m) => m.author.id === discord.bot.id)).toEqual([]);
    // the answer was remembered: one lookup for two DMs
    expect(discord.calls.filter((call) => call.path === `/guilds/${server.elsewhere().id}/members/${discord.member.id}`)).toHaveLength(1);
  });

  it("answers when Discord will not say whether the user is a member there, and logs why", async () => {
    const server = withServerElsewhere();
    bot = await startDiscordBot(server.env);
    const { discord } = bot;
    bot.model.otherwise(reply.text("hello"));
    discord.world.addMember(server.elsewhere().id, discord.member.id);
    await bot.app.store.workspaceSettings.set({ platform: "discord", workspaceId: server.elsewhere().id }, "ignoredUsers", [discord.member.id], "its owner");
    discord.failNext({ method: "GET", path: /^\/guilds\/\d+\/members\//, status: 403, code: 50001, message: "Missing Access" });
    const dm = discord.openDm(discord.member);
    const question = await discord.dispatchMessage({ author: discord.member, channelId: dm.id, content: "still there?" });

    expect((await discord.waitFor((call) => isAnswerTo(call, question))).body.content).toBe("hello");
    expect(bot.logs.lines.some((line) => /could not tell whether a user is a member/.test(line.msg))).toBe(true);
  });

  it("follows the bot admins' list of direct messages in every DM, and it leaves the servers' channels alone", async () => {
    bot = await startDiscordBot();
    const { discord } = bot;
    bot.model.otherwise(reply.text("hello"));
    await bot.app.store.workspaceSettings.set({ platform: "discord", workspaceId: "dm" }, "ignoredUsers", [discord.member.id], "a bot admin");
    const dm = discord.openDm(discord.member);
    await discord.dispatchMessage({ author: discord.member, channelId: dm.id, content: "answer me here" });
    const inServer = await discord.dispatchMessage({
      author: discord.member,
      content: `${FakeDiscord.mention(discord.bot)} and here?`,
      mentions: [discord.bot],
    });
    await discord.waitFor((call) => isAnswerTo(call, inServer));
    await bot.app.intake.idle();

    expect(bot.model.chatRequests).toHaveLength(1);
    expect(discord.messagesIn(dm.id).filter((m) => m.author.id === discord.bot.id)).toEqual([]);
  });

  it("counts every DM against one daily budget, so DMs cannot spend what the servers may not", async () => {
    // Room for one turn's prompt (each call is checked too); that turn spends all of it.
    bot = await startDiscordBot({ DAILY_TOKEN_BUDGET: "2000" });
    const { discord } = bot;
    bot.model.otherwise(reply.text("an answer", { prompt_tokens: 1_500, completion_tokens: 500, total_tokens: 2_000 }));
    const users = [discord.member, discord.moderator, discord.admin];
    const answers: string[] = [];
    for (const user of users) {
      const dm = discord.openDm(user);
      const question = await discord.dispatchMessage({ author: user, channelId: dm.id, content: "spend some tokens" });
      answers.push((await discord.waitFor((call) => isAnswerTo(call, question))).body.content);
    }
    const inServer = await discord.dispatchMessage({
      author: discord.member,
      content: `${FakeDiscord.mention(discord.bot)} and here?`,
      mentions: [discord.bot],
    });
    await discord.waitFor((call) => isAnswerTo(call, inServer));

    expect(answers[0]).toBe("an answer");
    expect(answers.slice(1)).toEqual([expect.stringMatching(/daily budget .* is used up until/), expect.stringMatching(/daily budget .* is used up until/)]);
    // the spend of all DMs together: one turn
    expect(bot.model.chatRequests).toHaveLength(2);
  });
});

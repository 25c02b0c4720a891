import { FakeDiscord, type RestCall } from "../../fakes/discord/fake-discord.js";
import { role, type ChannelPayload, type MessagePayload } from "../../fakes/discord/payloads.js";
import { snowflake } from "../../fakes/discord/snowflake.js";
import { isAnswerTo, startDiscordBot, type DiscordBot } from "../../support/discord-bot.js";
import { echo, errorsSince, type Outcome, type ReplayFile } from "./outcome.js";

/** The ids the payloads were adapted to (the MANIFEST's fake-discord world). */
const DISCORD_IDS = {
  bot: "1180000000000000001",
  guild: "1180000000000000100",
  channels: ["1180000000000001000", "1180000000000001001", "1180000000000001002"],
  dm: "1180000000000002000",
  /** The managed role Discord gives every bot; d03 mentions it. */
  botRole: "1457473602180878604",
  /** The person in the recorded conversation (d01, d06, d18). */
  tester: "1033044521375764530",
};

/** The gateway event each payload is, where it is not MESSAGE_CREATE (the MANIFEST's "check" column). */
const EVENTS: Record<string, string> = {
  d04: "THREAD_CREATE",
  d08: "INTERACTION_CREATE",
  d13: "MESSAGE_UPDATE",
  d14: "MESSAGE_UPDATE",
  d15: "MESSAGE_DELETE",
  d16: "INTERACTION_CREATE",
};

const isPost = (call: RestCall) => call.method === "POST" && /^\/channels\/\d+\/messages$/.test(call.path) && call.status === 200;
const callbackOf = (call: RestCall) => /^\/interactions\/(\d+)\/[^/]+\/callback$/.exec(call.path)?.[1];

/**
 * The world the MANIFEST describes for the Discord payloads: the real discord.js Client logged
 * into the fake as bot 1180000000000000001, in guild 1180000000000000100 with #general, #second
 * and #third; the managed bot role given to the bot (GUILD_ROLE_CREATE, GUILD_MEMBER_UPDATE); the
 * DM channel 1180000000000002000. The fake learns every injected message, thread and interaction,
 * so replies and callbacks to them resolve.
 */
export class DiscordReplay {
  /** The interaction id of each interaction payload, by file name. */
  private readonly interactions = new Map<string, string>();

  private constructor(readonly bot: DiscordBot) {}

  static async start(): Promise<DiscordReplay> {
    const { bot: botId, guild, channels, dm, botRole, tester } = DISCORD_IDS;
    const bot = await startDiscordBot({}, {}, { ids: { bot: botId, guild, channels } });
    const { discord } = bot;
    bot.model.otherwise(echo);
    const managed = { ...role(botRole, discord.world.application.name, 0n, 1), managed: true, tags: { bot_id: botId } };
    discord.world.guild(guild).roles.push(managed);
    discord.world.guild(guild).members.set(botId, [botRole]);
    await discord.dispatch("GUILD_ROLE_CREATE", { guild_id: guild, role: managed });
    await discord.dispatch("GUILD_MEMBER_UPDATE", {
      guild_id: guild,
      user: discord.bot,
      roles: [botRole],
      nick: null,
      joined_at: new Date(0).toISOString(),
      deaf: false,
      mute: false,
      flags: 0,
    });
    discord.world.openDm(discord.world.addUser("testuser2384", false, tester), dm);
    const replay = new DiscordReplay(bot);
    await replay.barrier();
    return replay;
  }

  /**
   * Sends one payload as the gateway would, then waits until the client has read it and the bot
   * is done with it. Replies to interactions go out beside the gateway's order: read them with
   * `privateReplies` once the bot has answered a later question.
   */
  async replay(file: ReplayFile, context: { message?: MessagePayload; thread?: ChannelPayload } = {}): Promise<Omit<Outcome, "privateReplies">> {
    const { discord, logs } = this.bot;
    const before = { calls: this.bot.model.chatRequests.length, rest: discord.calls.length, logs: logs.lines.length };
    await this.inject(file, context);
    await this.barrier();
    await this.bot.app.intake.idle();
    const calls = discord.calls.slice(before.rest);
    return {
      modelCalls: this.bot.model.chatRequests.length - before.calls,
      posts: calls.filter(isPost).map((call) => `${this.place(call)}: ${call.body.content}`),
      errors: errorsSince(logs, before.logs),
    };
  }

  /** A member mentions the bot in #general; resolves with the answer once it is posted. */
  async ask(text: string): Promise<string> {
    const { discord } = this.bot;
    const question = await discord.dispatchMessage({ author: discord.member, content: `${FakeDiscord.mention(discord.bot)} ${text}`, mentions: [discord.bot] });
    const answer = await discord.waitFor((call) => isAnswerTo(call, question), 20_000);
    await this.bot.app.intake.idle();
    return `${this.place(answer)}: ${answer.body.content}`;
  }

  /** Every message the bot posted for everyone so far, as "where: text". */
  posts(): string[] {
    return this.bot.discord.calls.filter(isPost).map((call) => `${this.place(call)}: ${call.body.content}`);
  }

  /** The replies only its user sees to each interaction payload replayed, by file name. */
  privateReplies(): Record<string, string[]> {
    const calls = this.bot.discord.calls;
    const replies = (id: string) =>
      calls.filter((call) => callbackOf(call) === id).map((call) => call.body.data?.content ?? `(callback type ${call.body.type})`);
    return Object.fromEntries([...this.interactions].map(([name, id]) => [name, replies(id)]));
  }

  close(): Promise<void> {
    return this.bot.close();
  }

  private async inject({ name, payload }: ReplayFile, context: { message?: MessagePayload; thread?: ChannelPayload }): Promise<void> {
    const { world } = this.bot.discord;
    const event = EVENTS[name.slice(0, 3)] ?? "MESSAGE_CREATE";
    let data = payload;
    if (event === "MESSAGE_CREATE" || event === "MESSAGE_UPDATE") world.channelMessages(payload.channel_id).set(payload.id, payload);
    if (event === "MESSAGE_DELETE") world.channelMessages(payload.channel_id).delete(payload.id);
    if (event === "THREAD_CREATE") world.channels.set(payload.id, payload);
    if (event === "INTERACTION_CREATE") {
      data = payload.type === undefined ? this.buttonClick(payload, context) : payload;
      const user = data.member?.user ?? data.user;
      world.interactions.set(data.id, { id: data.id, token: data.token, channelId: data.channel_id, guildId: data.guild_id, user });
      this.interactions.set(name, data.id);
    }
    await this.bot.discord.dispatch(event, data);
  }

  /** d08 is only a component's data: a click on a button of `context.message`, in `context.thread`, by the tester. */
  private buttonClick(data: Record<string, unknown>, { message, thread }: { message?: MessagePayload; thread?: ChannelPayload }) {
    if (!message || !thread) throw new Error("a button click needs the message and the channel it is in");
    const { guild, bot, tester } = DISCORD_IDS;
    const user = this.bot.discord.world.user(tester);
    return {
      id: snowflake(),
      application_id: bot,
      type: 3,
      token: `button-click-${snowflake()}`,
      version: 1,
      data,
      guild_id: guild,
      channel_id: thread.id,
      channel: thread,
      message,
      member: { user, roles: [], nick: null, joined_at: new Date(0).toISOString(), deaf: false, mute: false, flags: 0, permissions: "0" },
      app_permissions: "0",
      locale: "en-US",
      guild_locale: "en-US",
      entitlements: [],
      authorizing_integration_owners: { "0": guild },
      context: 0,
      attachment_size_limit: 10_485_760,
    };
  }

  /**
   * An autocomplete request the client answers: the gateway delivers events in order, so once its
   * answer arrives the client has read everything sent before it.
   */
  private async barrier(): Promise<void> {
    const { discord } = this.bot;
    const interaction = await discord.dispatchAutocomplete({
      user: discord.member,
      name: "tools",
      subcommand: "enable",
      options: [{ name: "tool", value: "", focused: true }],
    });
    await discord.waitFor((call) => callbackOf(call) === interaction.id, 20_000);
  }

  /** "#general ↩ 1457…": the channel, and the message the post replies to. */
  private place(call: RestCall): string {
    const channelId = /^\/channels\/(\d+)\//.exec(call.path)![1]!;
    const channel = this.bot.discord.world.channels.get(channelId);
    const where = channel?.name ? `#${channel.name}` : channelId === DISCORD_IDS.dm ? "DM" : channelId;
    const replyTo = call.body.message_reference?.message_id;
    return replyTo ? `${where} ↩ ${replyTo}` : where;
  }
}

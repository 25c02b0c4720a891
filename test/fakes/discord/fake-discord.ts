import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { FakeGateway, type IdentifyRecord } from "./gateway.js";
import { ApiError } from "./messages.js";
import {
  ChannelKind,
  InteractionKind,
  member,
  message,
  Permission,
  threadChannel,
  type ChannelPayload,
  type MessagePayload,
  type RolePayload,
  type UserPayload,
} from "./payloads.js";
import { componentPayload, interactionPayload } from "./interactions.js";
import { findRoute } from "./rest-routes.js";
import { snowflake, snowflakeOnShard } from "./snowflake.js";
import { World, type FakeGuild, type InteractionRecord } from "./world.js";
import { readMultipart } from "../multipart.js";
import { InjectedFaults, RestCallLog, type FailureRule, type HeldRequests, type RestCall } from "./rest-calls.js";

export type { FailureRule, HeldRequests, RestCall } from "./rest-calls.js";
import { closeServer } from "../close-server.js";
import type { Answer } from "../fake-http-server.js";
import { FakeFileHost } from "../file-host.js";

interface CommandOption {
  name: string;
  value: string | number | boolean;
  /** An attachment option (type 11): the file, as `attachment()` made it; `value` is its id. */
  attachment?: Record<string, unknown>;
  /** For autocomplete: the option being typed. */
  focused?: boolean;
}

export interface InteractionInput {
  user: UserPayload;
  name: string;
  subcommand?: string;
  /** The subcommand's group ("channel" in /settings channel tools). */
  subcommandGroup?: string;
  options?: CommandOption[];
  /** Defaults to the default world's #general. */
  channelId?: string;
}

/** Ids to use instead of fresh snowflakes, for payloads recorded against a known world. */
export interface FixedIds {
  /** The bot's user id, which is also its application's id. */
  bot?: string;
  guild?: string;
  /** Text channels: the first is #general, the others are added as #second, #third, … */
  channels?: string[];
}

export interface FakeDiscordOptions {
  token?: string;
  ids?: FixedIds;
}

const CHANNEL_NAMES = ["general", "second", "third"];

/**
 * A local Discord for tests and benchmarks: REST under /api/v10 and a gateway WebSocket, on
 * 127.0.0.1. The real discord.js Client logs into it (`rest.api` = `apiUrl`; the gateway URL
 * comes from GET /gateway/bot). It records every REST call, keeps channels and messages as
 * users would see them, and dispatches gateway events the test asks for.
 *
 * The default world: guild "Test Server" with #general; `member` (plain permissions), `admin`
 * (a role with Manage Server), `moderator` (Manage Messages); the bot is a member.
 *
 * @example Time a mention until its answer (the reply that notifies the asker):
 *   const discord = await FakeDiscord.start();   // bot: DISCORD_TOKEN=discord.token, DISCORD_API_URL=discord.apiUrl
 *   const sent = performance.now();
 *   const q = await discord.dispatchMessage({ author: discord.member, content: `${FakeDiscord.mention(discord.bot)} hi`, mentions: [discord.bot] });
 *   const answer = await discord.waitFor((c) => c.body?.message_reference?.message_id === q.id && c.body?.allowed_mentions?.replied_user === true);
 *   const ms = answer.at - sent;
 */
export class FakeDiscord {
  readonly world: World;
  /** Every answered REST call, in order. */
  get calls(): RestCall[] {
    return this.log.calls;
  }
  readonly guild: FakeGuild;
  readonly general: ChannelPayload;
  readonly member: UserPayload;
  readonly admin: UserPayload;
  readonly moderator: UserPayload;
  readonly adminRole: RolePayload;
  /** Application commands last registered, per scope ("global" or a guild id). */
  readonly commands = new Map<string, unknown[]>();
  apiUrl = "";
  gatewayUrl = "";
  /** Discord's CDN, on the fake's own server: point DISCORD_CDN_URL at `cdn.baseUrl`. */
  readonly cdn = new FakeFileHost("/cdn/", () => this.apiUrl.replace(/\/api$/, ""));

  private server?: Server;
  private gateway?: FakeGateway;
  private readonly log = new RestCallLog();
  private readonly faults = new InjectedFaults();

  private constructor(
    readonly token: string,
    ids: FixedIds = {},
  ) {
    this.world = new World("Agent Bot", ids.bot);
    this.member = this.world.addUser("alice");
    this.admin = this.world.addUser("bob");
    this.moderator = this.world.addUser("mona");
    const owner = this.world.addUser("owner");
    this.guild = this.world.addGuild("Test Server", owner.id, ids.guild);
    this.adminRole = this.world.addRole(this.guild.id, "Admin", Permission.ManageGuild);
    const modRole = this.world.addRole(this.guild.id, "Moderator", Permission.ManageMessages);
    this.world.addMember(this.guild.id, owner.id);
    this.world.addMember(this.guild.id, this.member.id);
    this.world.addMember(this.guild.id, this.admin.id, [this.adminRole.id]);
    this.world.addMember(this.guild.id, this.moderator.id, [modRole.id]);
    const [generalId, ...others] = ids.channels ?? [];
    this.general = this.world.addTextChannel(this.guild.id, "general", generalId);
    others.forEach((id, i) => this.world.addTextChannel(this.guild.id, CHANNEL_NAMES[i + 1] ?? `channel-${i + 2}`, id));
  }

  static async start(options: FakeDiscordOptions = {}): Promise<FakeDiscord> {
    const fake = new FakeDiscord(options.token ?? "fake-discord-token", options.ids);
    await fake.listen();
    return fake;
  }

  get bot(): UserPayload {
    return this.world.bot;
  }

  /** Gateway sessions that identified and are still open. */
  get connectedSessions(): number {
    return this.gateway!.readySessions;
  }

  get identifies(): IdentifyRecord[] {
    return this.gateway!.identifies;
  }

  /** `<@id>`, the way Discord writes a user mention in message text. */
  static mention(user: UserPayload): string {
    return `<@${user.id}>`;
  }

  /**
   * A user posts a message: stored, then sent as MESSAGE_CREATE. `mentions` is what Discord
   * would put in the payload's `mentions` array (it is not derived from the text).
   */
  async dispatchMessage(input: {
    author: UserPayload;
    content: string;
    channelId?: string;
    mentions?: UserPayload[];
    mentionEveryone?: boolean;
    /** A message type other than a plain message (a system message such as a pin notice). */
    type?: number;
    /** Attachment objects (see `attachment`). */
    attachments?: unknown[];
    /** More fields of the payload (a message_reference, message_snapshots, ...). */
    extra?: Partial<MessagePayload>;
  }): Promise<MessagePayload> {
    const channelId = input.channelId ?? this.general.id;
    const channel = this.world.channels.get(channelId);
    if (!channel) throw new Error(`fake Discord: no channel ${channelId}`);
    const guildId = channel.guild_id;
    const created = message({
      id: snowflake(),
      channel_id: channelId,
      author: input.author,
      content: input.content,
      mentions: input.mentions ?? [],
      mention_everyone: input.mentionEveryone ?? false,
      ...(input.type !== undefined ? { type: input.type } : {}),
      ...(input.attachments ? { attachments: input.attachments } : {}),
      ...(guildId ? { guild_id: guildId, member: member(this.world.guild(guildId).members.get(input.author.id) ?? []) } : {}),
      ...input.extra,
    });
    this.world.channelMessages(channelId).set(created.id, created);
    channel.last_message_id = created.id;
    await this.redeliver(created);
    return created;
  }

  /**
   * Messages posted before the bot was there to receive them (no gateway event): `count` of them,
   * oldest first, one every `everyMs` up to now, for the history API to page through.
   */
  seedHistory(channelId: string, count: number, messageOf: (i: number) => { author: UserPayload; content: string }, everyMs = 60_000): MessagePayload[] {
    const channel = this.world.channels.get(channelId);
    if (!channel) throw new Error(`fake Discord: no channel ${channelId}`);
    const start = Date.now() - count * everyMs;
    return Array.from({ length: count }, (_, i) => {
      const time = start + i * everyMs;
      const { author, content } = messageOf(i);
      const created = message({
        id: snowflake(time),
        channel_id: channelId,
        author,
        content,
        timestamp: new Date(time).toISOString(),
        guild_id: channel.guild_id,
      });
      this.world.channelMessages(channelId).set(created.id, created);
      return created;
    });
  }

  /**
   * A file on the CDN and the attachment object a message carries for it. `size` is what Discord
   * declares (the body's length unless given: a test may make it lie).
   */
  attachment(name: string, served: Answer, declared: { contentType?: string; size?: number } = {}): Record<string, unknown> {
    const url = this.cdn.serve(name, served);
    const size = declared.size ?? (served.kind === "body" ? served.body.length : 0);
    return { id: snowflake(), filename: name, size, url, proxy_url: url, ...(declared.contentType ? { content_type: declared.contentType } : {}) };
  }

  /** Sends a MESSAGE_CREATE for a message again, as the gateway sometimes does. */
  async redeliver(payload: MessagePayload): Promise<void> {
    const channel = this.world.channels.get(payload.channel_id);
    await this.dispatch("MESSAGE_CREATE", { ...payload, ...(channel ? { channel_type: channel.type } : {}) });
  }

  /**
   * A server the bot is not a member of, with a #general and the default world's users: there a
   * user-installed app is reached through interactions alone (the gateway never tells the bot of it).
   */
  addServerWithoutBot(name: string): { guild: FakeGuild; general: ChannelPayload } {
    const guild = this.world.addGuild(name, this.admin.id, snowflake(), false);
    for (const user of [this.member, this.admin, this.moderator]) this.world.addMember(guild.id, user.id);
    return { guild, general: this.world.addTextChannel(guild.id, "general") };
  }

  /**
   * Another guild, on `shard` of `shardCount` shards (its id is chosen so), with a #general and
   * the default world's users as plain members.
   */
  addGuild(name: string, shard: { shard: number; shardCount: number }): { guild: FakeGuild; general: ChannelPayload } {
    const guild = this.world.addGuild(name, this.admin.id, snowflakeOnShard(shard.shard, shard.shardCount));
    for (const user of [this.member, this.admin, this.moderator]) this.world.addMember(guild.id, user.id);
    return { guild, general: this.world.addTextChannel(guild.id, "general") };
  }

  /** The shard ids of the gateway sessions that identified and are open. */
  get readyShards(): number[] {
    return this.gateway!.readyShards;
  }

  /** A user runs a slash command. Resolves with the interaction (its id and token). */
  dispatchCommand(input: InteractionInput): Promise<InteractionRecord> {
    return this.dispatchInteraction(InteractionKind.ApplicationCommand, input);
  }

  /**
   * A user presses a button on a message (a message component): INTERACTION_CREATE of type 3 with
   * the message and the button's custom id. Resolves with the interaction (its id and token).
   */
  async pressButton(input: { user: UserPayload; message: MessagePayload; customId: string }): Promise<InteractionRecord> {
    const channel = this.world.channels.get(input.message.channel_id);
    if (!channel) throw new Error(`fake Discord: no channel ${input.message.channel_id}`);
    const record: InteractionRecord = {
      id: snowflake(),
      token: `interaction-token-${snowflake()}`,
      channelId: channel.id,
      guildId: channel.guild_id,
      user: input.user,
      messageId: input.message.id,
    };
    this.world.interactions.set(record.id, record);
    await this.dispatch("INTERACTION_CREATE", componentPayload(this.world, record, channel, input.message, input.customId));
    return record;
  }

  /** The answer to an interaction: its callback call to /interactions/ID/TOKEN/callback. */
  callbackOf(interaction: InteractionRecord, timeoutMs = 15_000): Promise<RestCall> {
    return this.waitFor((call) => call.method === "POST" && call.path === `/interactions/${interaction.id}/${interaction.token}/callback`, timeoutMs);
  }

  /** A user types into an autocomplete option (mark it `focused`). */
  dispatchAutocomplete(input: InteractionInput): Promise<InteractionRecord> {
    return this.dispatchInteraction(InteractionKind.Autocomplete, input);
  }

  async dispatch(event: string, data: Record<string, unknown>): Promise<void> {
    await this.gateway!.dispatch(event, data);
  }

  /** Resolves with the first recorded call (past or future) that matches; rejects after `timeoutMs`. */
  /** Calls `listener` with every REST call as it is answered (cheaper than waitFor for many waits at once); returns an unsubscribe. */
  onCall(listener: (call: RestCall) => void): () => void {
    return this.log.onCall(listener);
  }

  waitFor(predicate: (call: RestCall) => boolean, timeoutMs = 15_000): Promise<RestCall> {
    return this.log.until(() => this.calls.find(predicate), timeoutMs, "a REST call matching the predicate");
  }

  /** Resolves once `count` calls match. */
  waitForCount(predicate: (call: RestCall) => boolean, count: number, timeoutMs = 15_000): Promise<RestCall[]> {
    return this.log.until(
      () => {
        const found = this.calls.filter(predicate);
        return found.length >= count ? found : undefined;
      },
      timeoutMs,
      `${count} REST calls matching the predicate`,
    );
  }

  /** Holds matching requests unanswered until `release()` is called: a slow Discord, with no timing involved. */
  /** Holds matching requests (with `query`: those with these query parameters) until released. */
  hold(rule: { method?: string; path: RegExp; query?: Record<string, string> }): HeldRequests {
    return this.faults.hold(rule);
  }

  /** Requests matching the rule fail with its status and Discord error code. */
  failNext(rule: FailureRule): void {
    this.faults.failNext(rule);
  }

  /** The channel's messages, oldest first, as users see them now (edits applied; ephemeral ones included). */
  messagesIn(channelId: string): MessagePayload[] {
    return [...this.world.channelMessages(channelId).values()];
  }

  threadsIn(parentId: string): ChannelPayload[] {
    return [...this.world.channels.values()].filter((c) => c.type === ChannelKind.PublicThread && c.parent_id === parentId);
  }

  /** Someone (not necessarily the bot) opens a public thread in a channel; the gateway hears of it. */
  async createThread(parentId: string, name: string, owner: UserPayload): Promise<ChannelPayload> {
    const parent = this.world.channels.get(parentId);
    if (!parent) throw new Error(`fake Discord: no channel ${parentId}`);
    const thread = threadChannel(snowflake(), parent, owner.id, name);
    this.world.channels.set(thread.id, thread);
    await this.dispatch("THREAD_CREATE", { ...thread, newly_created: true });
    return thread;
  }

  openDm(user: UserPayload): ChannelPayload {
    return this.world.openDm(user);
  }

  /** Deletes a channel, as a moderator would, and tells the gateway. */
  async deleteChannel(channelId: string): Promise<void> {
    const channel = this.world.channels.get(channelId);
    this.world.channels.delete(channelId);
    if (channel) await this.dispatch(channel.type === ChannelKind.PublicThread ? "THREAD_DELETE" : "CHANNEL_DELETE", channel);
  }

  async deleteMessage(channelId: string, messageId: string): Promise<void> {
    this.world.channelMessages(channelId).delete(messageId);
    const guildId = this.world.channels.get(channelId)?.guild_id;
    await this.dispatch("MESSAGE_DELETE", { id: messageId, channel_id: channelId, ...(guildId ? { guild_id: guildId } : {}) });
  }

  /** A moderator deletes several messages at once (MESSAGE_DELETE_BULK). */
  async bulkDeleteMessages(channelId: string, messageIds: string[]): Promise<void> {
    for (const id of messageIds) this.world.channelMessages(channelId).delete(id);
    const guildId = this.world.channels.get(channelId)?.guild_id;
    await this.dispatch("MESSAGE_DELETE_BULK", { ids: messageIds, channel_id: channelId, ...(guildId ? { guild_id: guildId } : {}) });
  }

  /** Its author edits a message: stored, then sent as MESSAGE_UPDATE with the whole message, as Discord does. */
  async editMessage(channelId: string, messageId: string, content: string): Promise<MessagePayload> {
    const stored = this.world.channelMessages(channelId).get(messageId);
    if (!stored) throw new Error(`fake Discord: no message ${messageId} in ${channelId}`);
    const edited = { ...stored, content, edited_timestamp: new Date().toISOString() };
    this.world.channelMessages(channelId).set(messageId, edited);
    await this.dispatch("MESSAGE_UPDATE", edited);
    return edited;
  }

  async close(): Promise<void> {
    this.cdn.close();
    this.gateway?.close();
    await closeServer(this.server);
  }

  private async dispatchInteraction(type: number, input: InteractionInput): Promise<InteractionRecord> {
    const channelId = input.channelId ?? this.general.id;
    const channel = this.world.channels.get(channelId);
    if (!channel) throw new Error(`fake Discord: no channel ${channelId}`);
    const record: InteractionRecord = {
      id: snowflake(),
      token: `interaction-token-${snowflake()}`,
      channelId,
      guildId: channel.guild_id,
      user: input.user,
    };
    this.world.interactions.set(record.id, record);
    const registered = [...this.commands.values()].flat() as { id: string; name: string }[];
    const commandId = registered.find((c) => c.name === input.name)?.id ?? snowflake();
    await this.dispatch("INTERACTION_CREATE", interactionPayload(this.world, type, record, channel, commandId, input));
    return record;
  }

  private listen(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    return new Promise((resolve) => {
      this.server!.listen(0, "127.0.0.1", () => {
        const { port } = this.server!.address() as AddressInfo;
        this.apiUrl = `http://127.0.0.1:${port}/api`;
        this.gatewayUrl = `ws://127.0.0.1:${port}/gateway`;
        this.gateway = new FakeGateway(this.server!, this.world, this.token);
        resolve();
      });
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (this.cdn.handle(req, res)) return;
    const at = performance.now();
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const text = raw.toString("utf8");
    const contentType = req.headers["content-type"] ?? "";
    const multipart = contentType.startsWith("multipart/form-data") ? readMultipart(raw, contentType) : undefined;
    const rawPath = url.pathname.replace(/^\/api\/v10/, "");
    const call: RestCall = {
      method: req.method ?? "GET",
      path: rawPath.split("/").map(decodeURIComponent).join("/"),
      rawPath,
      query: Object.fromEntries(url.searchParams),
      body: multipart ? multipart.payload : text && contentType.includes("json") ? JSON.parse(text) : text || undefined,
      files: multipart?.files ?? [],
      status: 0,
      at,
    };
    await this.faults.passHolds(call);
    const result = await this.respond(call, url.searchParams, req.headers.authorization);
    call.status = result.status;
    send(res, result);
    this.log.record(call);
  }

  private async respond(call: RestCall, query: URLSearchParams, authorization: string | undefined) {
    const found = findRoute(call.method, call.path);
    if (!found) return { status: 404, body: { message: "404: Not Found", code: 0 } };
    if (!found.route.public && authorization !== `Bot ${this.token}`) return { status: 401, body: { message: "401: Unauthorized", code: 0 } };
    // The bot's own calls into a server it is not in; interaction callbacks and webhooks still work there.
    const channel = /^\/channels\/(\d+)/.exec(call.path)?.[1];
    if (!found.route.public && channel && this.world.botLacks(channel)) return { status: 403, body: { message: "Missing Access", code: 50001 } };
    const failure = this.faults.takeFailure(call);
    if (failure) {
      return {
        status: failure.status,
        body: failure.body ?? { message: failure.message ?? "Injected failure", code: failure.code ?? 0 },
        headers: failure.headers,
      };
    }
    try {
      return await found.route.handle({
        params: found.params,
        body: call.body,
        query,
        world: this.world,
        gateway: this.gateway!,
        gatewayUrl: this.gatewayUrl,
        commands: this.commands,
      });
    } catch (error) {
      if (error instanceof ApiError) return { status: error.status, body: error.body };
      throw error;
    }
  }
}

/** JSON answers carry a JSON content type; a 204 carries no content type at all (discord.js would try to parse it). */
function send(res: ServerResponse, result: { status: number; body?: unknown; headers?: Record<string, string> }): void {
  if (result.status === 204 || result.body === undefined) {
    res.writeHead(result.status, result.headers ?? {});
    res.end();
    return;
  }
  const payload = JSON.stringify(result.body);
  res.writeHead(result.status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(payload),
    ...result.headers,
  });
  res.end(payload);
}

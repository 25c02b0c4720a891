import {
  ALL_PERMISSIONS,
  ChannelKind,
  dmChannel,
  member,
  MEMBER_PERMISSIONS,
  Permission,
  role,
  textChannel,
  user,
  type ChannelPayload,
  type MessagePayload,
  type RolePayload,
  type UserPayload,
} from "./payloads.js";
import { snowflake } from "./snowflake.js";

export interface FakeGuild {
  id: string;
  name: string;
  ownerId: string;
  roles: RolePayload[];
  /** user id → role ids (the @everyone role is implied). */
  members: Map<string, string[]>;
}

export interface InteractionRecord {
  id: string;
  token: string;
  channelId: string;
  guildId?: string;
  user: UserPayload;
  /** The message the interaction's response created (`@original`), once there is one. */
  originalId?: string;
  /** A component interaction: the message whose button was pressed (UPDATE_MESSAGE edits it). */
  messageId?: string;
  /** The interaction has been answered (a reply, a deferral or an update). */
  acknowledged?: boolean;
}

/** Everything the fake Discord knows: users, guilds, channels (threads and DMs too), messages. */
export class World {
  readonly application: { id: string; name: string };
  readonly bot: UserPayload;
  readonly users = new Map<string, UserPayload>();
  readonly guilds = new Map<string, FakeGuild>();
  readonly channels = new Map<string, ChannelPayload>();
  readonly messages = new Map<string, Map<string, MessagePayload>>();
  readonly interactions = new Map<string, InteractionRecord>();
  /** Messages the bot posted with components (buttons), even if an edit took them away since. */
  readonly postedWithComponents = new Set<string>();

  constructor(botName: string, botId = snowflake()) {
    this.application = { id: botId, name: botName };
    this.bot = this.addUser(botName, true, botId);
  }

  addUser(username: string, bot = false, id = snowflake()): UserPayload {
    const created = user(id, username, bot);
    this.users.set(id, created);
    return created;
  }

  /**
   * A guild with an @everyone role (member permissions), the bot as a member unless `withBot` is
   * false (a server where people use the app they installed for themselves), and no channels yet.
   */
  addGuild(name: string, ownerId: string, id = snowflake(), withBot = true): FakeGuild {
    const guild: FakeGuild = {
      id,
      name,
      ownerId,
      roles: [role(id, "@everyone", MEMBER_PERMISSIONS, 0)],
      members: new Map(withBot ? [[this.bot.id, []]] : []),
    };
    this.guilds.set(id, guild);
    return guild;
  }

  addRole(guildId: string, name: string, permissions: bigint): RolePayload {
    const guild = this.guild(guildId);
    const created = role(snowflake(), name, permissions, guild.roles.length);
    guild.roles.push(created);
    return created;
  }

  addMember(guildId: string, userId: string, roleIds: string[] = []): void {
    this.guild(guildId).members.set(userId, roleIds);
  }

  addTextChannel(guildId: string, name: string, id = snowflake()): ChannelPayload {
    const position = [...this.channels.values()].filter((c) => c.guild_id === guildId).length;
    const channel = textChannel(id, guildId, name, position);
    this.channels.set(channel.id, channel);
    return channel;
  }

  /**
   * Only `visibleTo` (role or user ids) may see the channel: permission overwrites that deny
   * View Channel to @everyone and allow it to them, as a private channel has. Set before the bot
   * connects (GUILD_CREATE carries them).
   */
  restrictChannel(channelId: string, visibleTo: { roles?: string[]; users?: string[] }): void {
    const channel = this.channels.get(channelId);
    if (!channel?.guild_id) throw new Error(`fake Discord: no guild channel ${channelId}`);
    const view = String(Permission.ViewChannel);
    channel.permission_overwrites = [
      { id: channel.guild_id, type: 0, allow: "0", deny: view },
      ...(visibleTo.roles ?? []).map((id) => ({ id, type: 0, allow: view, deny: "0" })),
      ...(visibleTo.users ?? []).map((id) => ({ id, type: 1, allow: view, deny: "0" })),
    ];
  }

  openDm(recipient: UserPayload, id = snowflake()): ChannelPayload {
    const existing = [...this.channels.values()].find((c) => c.type === ChannelKind.DM && c.recipients?.some((r) => r.id === recipient.id));
    if (existing) return existing;
    const channel = dmChannel(id, recipient);
    this.channels.set(channel.id, channel);
    return channel;
  }

  /** The bot is not a member of the channel's guild: its own REST calls there are refused (Missing Access). */
  botLacks(channelId: string): boolean {
    const guildId = this.channels.get(channelId)?.guild_id;
    return guildId !== undefined && !this.guild(guildId).members.has(this.bot.id);
  }

  guild(id: string): FakeGuild {
    const found = this.guilds.get(id);
    if (!found) throw new Error(`fake Discord: no guild ${id}`);
    return found;
  }

  user(id: string): UserPayload {
    const found = this.users.get(id);
    if (!found) throw new Error(`fake Discord: no user ${id}`);
    return found;
  }

  channelMessages(channelId: string): Map<string, MessagePayload> {
    let messages = this.messages.get(channelId);
    if (!messages) {
      messages = new Map();
      this.messages.set(channelId, messages);
    }
    return messages;
  }

  /** Guild-level permissions, as Discord computes them: owner and Administrator get everything. */
  permissionsOf(guildId: string, userId: string): bigint {
    const guild = this.guild(guildId);
    if (guild.ownerId === userId) return ALL_PERMISSIONS;
    const roleIds = new Set([guildId, ...(guild.members.get(userId) ?? [])]);
    const bits = guild.roles.filter((r) => roleIds.has(r.id)).reduce((all, r) => all | BigInt(r.permissions), 0n);
    return bits & Permission.Administrator ? ALL_PERMISSIONS : bits;
  }

  /** The GUILD_CREATE payload: channels, active threads, roles and members (the bot included). */
  guildCreatePayload(guildId: string): Record<string, unknown> {
    const guild = this.guild(guildId);
    const channels = [...this.channels.values()].filter((c) => c.guild_id === guildId);
    return {
      id: guild.id,
      name: guild.name,
      icon: null,
      owner_id: guild.ownerId,
      unavailable: false,
      large: false,
      member_count: guild.members.size,
      joined_at: new Date(0).toISOString(),
      features: [],
      preferred_locale: "en-US",
      roles: guild.roles,
      emojis: [],
      stickers: [],
      channels: channels.filter((c) => c.type !== ChannelKind.PublicThread),
      threads: channels.filter((c) => c.type === ChannelKind.PublicThread && !c.thread_metadata?.archived),
      members: [...guild.members.entries()].map(([userId, roles]) => member(roles, this.user(userId))),
      presences: [],
      voice_states: [],
      stage_instances: [],
      guild_scheduled_events: [],
      soundboard_sounds: [],
    };
  }
}

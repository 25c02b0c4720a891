/**
 * Discord API objects as the real API sends them (the fields discord.js reads), built from the
 * fake's state. Numbers are Discord's own: channel types, message types, permission bits.
 */

export const ChannelKind = { GuildText: 0, DM: 1, PublicThread: 11 } as const;
export const MessageKind = { Default: 0, ChannelPinnedMessage: 6, Reply: 19, ChatInputCommand: 20 } as const;
export const MessageFlag = { Ephemeral: 1 << 6, Loading: 1 << 7 } as const;
export const InteractionKind = { ApplicationCommand: 2, MessageComponent: 3, Autocomplete: 4 } as const;
export const CallbackKind = { ChannelMessage: 4, DeferredChannelMessage: 5, DeferredUpdateMessage: 6, UpdateMessage: 7, AutocompleteResult: 8 } as const;
export const ComponentKind = { ActionRow: 1, Button: 2 } as const;
export const GatewayIntent = { Guilds: 1 << 0, GuildMessages: 1 << 9, DirectMessages: 1 << 12, MessageContent: 1 << 15 } as const;

export const Permission = {
  Administrator: 1n << 3n,
  ManageChannels: 1n << 4n,
  ManageGuild: 1n << 5n,
  ViewChannel: 1n << 10n,
  SendMessages: 1n << 11n,
  ManageMessages: 1n << 13n,
  ReadMessageHistory: 1n << 16n,
  UseApplicationCommands: 1n << 31n,
  CreatePublicThreads: 1n << 35n,
  SendMessagesInThreads: 1n << 38n,
} as const;

/** What a plain member may do in the default world: read, write, start and use threads, use commands. */
export const MEMBER_PERMISSIONS =
  Permission.ViewChannel |
  Permission.SendMessages |
  Permission.ReadMessageHistory |
  Permission.UseApplicationCommands |
  Permission.CreatePublicThreads |
  Permission.SendMessagesInThreads;

export const ALL_PERMISSIONS = (1n << 53n) - 1n;

export interface UserPayload {
  id: string;
  username: string;
  global_name: string | null;
  discriminator: string;
  avatar: null;
  bot?: boolean;
}

export interface RolePayload {
  id: string;
  name: string;
  color: number;
  hoist: boolean;
  position: number;
  permissions: string;
  managed: boolean;
  mentionable: boolean;
  flags: number;
  /** A managed role's owner: `bot_id` for the role Discord gives every bot. */
  tags?: { bot_id?: string };
}

export interface ChannelPayload {
  id: string;
  type: number;
  name?: string;
  guild_id?: string;
  parent_id?: string | null;
  owner_id?: string;
  position?: number;
  permission_overwrites?: unknown[];
  last_message_id?: string | null;
  recipients?: UserPayload[];
  thread_metadata?: { archived: boolean; auto_archive_duration: number; archive_timestamp: string; locked: boolean };
  message_count?: number;
  member_count?: number;
  rate_limit_per_user?: number;
  nsfw?: boolean;
  topic?: string | null;
  [key: string]: unknown;
}

export interface MessagePayload {
  id: string;
  channel_id: string;
  guild_id?: string;
  author: UserPayload;
  content: string;
  timestamp: string;
  edited_timestamp: string | null;
  tts: boolean;
  mention_everyone: boolean;
  mentions: UserPayload[];
  mention_roles: string[];
  attachments: unknown[];
  embeds: unknown[];
  pinned: boolean;
  type: number;
  flags: number;
  components: unknown[];
  webhook_id?: string;
  application_id?: string;
  /** type 0 is a reply, 1 a forward. */
  message_reference?: { message_id: string; channel_id: string; guild_id?: string; type: 0 | 1 };
  member?: MemberPayload;
  /** Extra fields a test wants on the gateway payload. */
  [key: string]: unknown;
}

export interface MemberPayload {
  user?: UserPayload;
  roles: string[];
  nick: string | null;
  joined_at: string;
  deaf: boolean;
  mute: boolean;
  flags: number;
  permissions?: string;
}

export const user = (id: string, username: string, bot = false): UserPayload => ({
  id,
  username,
  global_name: bot ? null : username,
  discriminator: "0",
  avatar: null,
  ...(bot ? { bot: true } : {}),
});

export const role = (id: string, name: string, permissions: bigint, position: number): RolePayload => ({
  id,
  name,
  color: 0,
  hoist: false,
  position,
  permissions: permissions.toString(),
  managed: false,
  mentionable: false,
  flags: 0,
});

export const member = (roles: string[], withUser?: UserPayload): MemberPayload => ({
  ...(withUser ? { user: withUser } : {}),
  roles,
  nick: null,
  joined_at: new Date(0).toISOString(),
  deaf: false,
  mute: false,
  flags: 0,
});

export const textChannel = (id: string, guildId: string, name: string, position: number): ChannelPayload => ({
  id,
  type: ChannelKind.GuildText,
  name,
  guild_id: guildId,
  parent_id: null,
  position,
  permission_overwrites: [],
  last_message_id: null,
  rate_limit_per_user: 0,
  nsfw: false,
  topic: null,
});

export const threadChannel = (id: string, parent: ChannelPayload, ownerId: string, name: string): ChannelPayload => ({
  id,
  type: ChannelKind.PublicThread,
  name,
  guild_id: parent.guild_id,
  parent_id: parent.id,
  owner_id: ownerId,
  last_message_id: null,
  rate_limit_per_user: 0,
  message_count: 0,
  member_count: 1,
  thread_metadata: { archived: false, auto_archive_duration: 1440, archive_timestamp: new Date().toISOString(), locked: false },
});

export const dmChannel = (id: string, recipient: UserPayload): ChannelPayload => ({
  id,
  type: ChannelKind.DM,
  last_message_id: null,
  recipients: [recipient],
});

export function message(fields: Pick<MessagePayload, "id" | "channel_id" | "author" | "content"> & Partial<MessagePayload>): MessagePayload {
  return {
    timestamp: new Date().toISOString(),
    edited_timestamp: null,
    tts: false,
    mention_everyone: false,
    mentions: [],
    mention_roles: [],
    attachments: [],
    embeds: [],
    pinned: false,
    type: MessageKind.Default,
    flags: 0,
    components: [],
    ...fields,
  };
}

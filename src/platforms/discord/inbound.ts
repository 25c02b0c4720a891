import { ChannelType, cleanContent, MessageReferenceType, type Attachment, type Collection, type Message } from "discord.js";
import {
  DIRECT_MESSAGES_WORKSPACE,
  type AttachmentDescriptor,
  type IncomingMessage,
  type Location,
  type PlatformOrder,
  type QuotedMessage,
} from "../../contract/inbound.js";
import { memberRoleIds, roleOf } from "./permissions.js";

export const PLATFORM = "discord";

/** Direct messages have no server: they share one workspace, whose daily budget caps them all. */
export const DM_WORKSPACE = DIRECT_MESSAGES_WORKSPACE;

/** A Discord message in the core's terms. Platform words stop here. */
export function incomingMessage(message: Message, adminUserIds: readonly string[]): IncomingMessage {
  const botId = message.client.user.id;
  const channel = message.channel;
  const isDm = channel.type === ChannelType.DM;
  return {
    platform: PLATFORM,
    workspaceId: message.guildId ?? DM_WORKSPACE,
    messageId: message.id,
    eventId: message.id,
    order: discordOrder(message.id),
    ...locationOf(message),
    isDm,
    actor: {
      id: message.author.id,
      name: message.member?.displayName ?? message.author.displayName,
      role: roleOf(message.author.id, message.member?.permissions, adminUserIds),
      isBot: message.author.bot || message.webhookId !== null,
      roleIds: memberRoleIds(message.member),
    },
    text: questionText(message, botId),
    mentionsBot: mentionsBot(message, botId),
    attachments: descriptors(message.attachments),
    // What a question quotes never costs the question: an oddity there leaves it out.
    replyTo: unlessItFails(() => repliedTo(message, botId)),
    repliesTo: repliedToId(message),
    forwarded: unlessItFails(() => forwardedBy(message, botId)),
    isEdit: false,
    isSystem: message.system,
    isOwn: message.author.id === botId,
  };
}

function locationOf(message: Pick<Message, "channel" | "channelId">): Location {
  const channel = message.channel;
  if (channel.isThread()) return { channelId: channel.id, parentChannelId: channel.parentId ?? undefined };
  return { channelId: message.channelId };
}

/** True when the message mentions the bot: its user (a reply that pings it included) or its managed role. */
function mentionsBot(message: Message, botId: string): boolean {
  if (message.mentions.users.has(botId)) return true;
  const botRole = message.guild?.members.me?.roles.botRole;
  return botRole ? message.mentions.roles.has(botRole.id) : false;
}

/** The question: the message text without the bot's mention, other mentions made readable (`@name`, `#channel`). */
function questionText(message: Message, botId: string): string {
  const botRoleId = message.guild?.members.me?.roles.botRole?.id;
  let text = message.content.replace(new RegExp(`<@!?${botId}>`, "g"), " ");
  if (botRoleId) text = text.replace(new RegExp(`<@&${botRoleId}>`, "g"), " ");
  return cleanContent(text, message.channel)
    .replace(/[ \t]{2,}/g, " ")
    .trim();
}

function descriptors(attachments: Collection<string, Attachment>): AttachmentDescriptor[] {
  return [...attachments.values()].map((file) => ({
    name: file.name,
    contentType: file.contentType ?? undefined,
    size: file.size,
    url: file.url,
  }));
}

/** The id of the message this one replies to; a forward's reference is no reply. */
function repliedToId(message: Message): string | undefined {
  const reference = message.reference;
  return reference && reference.type !== MessageReferenceType.Forward ? (reference.messageId ?? undefined) : undefined;
}

/**
 * The message this one replies to, when Discord sent it along (the reply's payload carries it,
 * and discord.js caches it); otherwise the core fetches it by its id.
 */
function repliedTo(message: Message, botId: string): QuotedMessage | undefined {
  const id = repliedToId(message);
  const quoted = id ? message.channel.messages.cache.get(id) : undefined;
  return quoted ? quotedMessage(quoted, botId) : undefined;
}

const unlessItFails = <T>(read: () => T): T | undefined => {
  try {
    return read();
  } catch {
    return undefined;
  }
};

/**
 * A message's (or an interaction's) place in Discord's order: its snowflake, which begins with the
 * time Discord made it. No hold-back: a guild's events, its interactions and its threads' included,
 * come over one gateway connection (one shard), in order, and DMs over shard 0's.
 */
export function discordOrder(id: string): PlatformOrder | undefined {
  return /^\d{1,19}$/.test(id) && BigInt(id) < 2n ** 63n ? { key: id } : undefined;
}

/** A message another one points to, in the core's terms. */
export function quotedMessage(message: Message, botId: string): QuotedMessage {
  return {
    messageId: message.id,
    authorId: message.author.id,
    authorName: message.member?.displayName ?? message.author.displayName,
    authorIsBot: message.author.bot,
    isOwn: message.author.id === botId,
    text: cleanContent(message.content, message.channel),
    attachments: descriptors(message.attachments),
    repliesTo: repliedToId(message),
    forwarded: forwardedBy(message, botId),
  };
}

/** A forward's snapshots of the original message: its text and files as they were (Discord sends no author). */
function forwardedBy(message: Message, botId: string): QuotedMessage[] | undefined {
  if (message.reference?.type !== MessageReferenceType.Forward || message.messageSnapshots.size === 0) return undefined;
  return [...message.messageSnapshots.values()].map((snapshot) => ({
    text: snapshot.content ? cleanContent(snapshot.content, message.channel) : "",
    attachments: descriptors(snapshot.attachments),
    isOwn: snapshot.author?.id === botId,
  }));
}

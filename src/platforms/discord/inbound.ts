import { ChannelType, cleanContent, type Attachment, type Collection, type Message } from "discord.js";
import type { AttachmentDescriptor, IncomingMessage, Location, QuotedMessage } from "../../runner/incoming.js";
import { memberRoleIds, roleOf } from "./permissions.js";

export const PLATFORM = "discord";

/** Direct messages have no server: they share one workspace, whose daily budget caps them all. */
export const DM_WORKSPACE = "dm";

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
    replyTo: repliedTo(message),
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

/** The message this one replies to, when Discord sent it along (it does, in the reply's payload). */
function repliedTo(message: Message): QuotedMessage | undefined {
  const id = message.reference?.messageId;
  if (!id) return undefined;
  const quoted = message.channel.messages.cache.get(id);
  if (!quoted) return { messageId: id, text: "", attachments: [] };
  return {
    messageId: quoted.id,
    authorId: quoted.author.id,
    authorName: quoted.member?.displayName ?? quoted.author.displayName,
    authorIsBot: quoted.author.bot,
    text: quoted.content,
    attachments: descriptors(quoted.attachments),
  };
}

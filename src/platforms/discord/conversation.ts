import { cleanContent, type Message } from "discord.js";
import type { ConversationRef } from "../../store/types.js";

export const PLATFORM = "discord";

/** Discord's limit on a thread name. */
const THREAD_NAME_MAX = 100;

/**
 * The conversation a channel is: in a guild the workspace is the guild and a thread is a channel
 * of its own (as Discord treats it); a DM is its own conversation and its own workspace.
 */
export function conversationOf(channelId: string, guildId: string | null | undefined): ConversationRef {
  return { platform: PLATFORM, workspaceId: guildId ?? dmWorkspace(channelId), channelId };
}

export const dmWorkspace = (channelId: string): string => `dm:${channelId}`;

/** True when the message mentions the bot: its user (from the payload's `mentions`) or its managed role. */
export function mentionsBot(message: Message, botId: string): boolean {
  if (message.mentions.users.has(botId)) return true;
  const botRole = message.guild?.members.me?.roles.botRole;
  return botRole ? message.mentions.roles.has(botRole.id) : false;
}

/** The question: the message text without the bot's mention, other mentions made readable (`@name`, `#channel`). */
export function questionText(message: Message, botId: string): string {
  const botRoleId = message.guild?.members.me?.roles.botRole?.id;
  let text = message.content.replace(new RegExp(`<@!?${botId}>`, "g"), " ");
  if (botRoleId) text = text.replace(new RegExp(`<@&${botRoleId}>`, "g"), " ");
  return cleanContent(text, message.channel)
    .replace(/[ \t]{2,}/g, " ")
    .trim();
}

/** A thread name from the question: its first line, cut at a word within Discord's 100 characters. */
export function threadName(question: string): string {
  const line = question.split("\n").find((l) => l.trim() !== "")?.replace(/\s+/g, " ").trim() ?? "";
  if (line === "") return "Tool steps";
  if (line.length <= THREAD_NAME_MAX) return line;
  const room = line.slice(0, THREAD_NAME_MAX - 1);
  const space = room.lastIndexOf(" ");
  return `${space > THREAD_NAME_MAX / 2 ? room.slice(0, space) : room}…`;
}

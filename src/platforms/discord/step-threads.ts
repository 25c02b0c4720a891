import { ChannelType, type Channel, type NewsChannel, type TextChannel, type ThreadChannel } from "discord.js";
import type { Logger } from "../../log.js";
import type { Store } from "../../store/store.js";
import { NO_PINGS } from "./allowed-mentions.js";
import { conversationOf, PLATFORM, threadName } from "./conversation.js";
import { describeDiscordError, permissionHint } from "./errors.js";
import type { StepPlace } from "./reply-sink.js";

/** Channels whose messages can start a thread. */
export function canHoldThreads(channel: Channel | null | undefined): channel is TextChannel | NewsChannel {
  return channel?.type === ChannelType.GuildText || channel?.type === ChannelType.GuildAnnouncement;
}

/**
 * Opens a public thread on `messageId` for a turn's steps and remembers it as the bot's, so
 * people can keep talking there without a mention (also after a restart). Returns undefined,
 * after logging why, when Discord refuses (e.g. 50013: no Create Public Threads permission).
 */
export async function openStepThread(
  channel: TextChannel | NewsChannel,
  messageId: string,
  question: string,
  store: Store,
  logger: Logger,
): Promise<ThreadChannel | undefined> {
  try {
    const thread = await channel.threads.create({ startMessage: messageId, name: threadName(question) });
    store.threads.remember({ platform: PLATFORM, workspaceId: channel.guildId, channelId: channel.id, threadId: thread.id });
    return thread;
  } catch (error) {
    logger.warn(
      { err: describeDiscordError(error), channelId: channel.id, reason: permissionHint(error) },
      "could not open a thread for the tool steps; posting them as replies in the channel instead",
    );
    return undefined;
  }
}

/** Steps posted into a thread, each edited in place when its tool ends. */
export function threadStepPlace(thread: ThreadChannel): StepPlace {
  return {
    post: (content) => thread.send({ content, allowedMentions: NO_PINGS }),
  };
}

/**
 * Gives a thread the exchange that opened it, so a follow-up there (its own conversation) has the
 * question's context. The runner already stored the exchange in the parent channel's memory.
 */
export function carryIntoThread(
  store: Store,
  thread: ThreadChannel,
  turnId: string,
  question: { author: string; text: string },
  answer: string,
): void {
  const conversation = store.memory.conversation(conversationOf(thread.id, thread.guildId));
  store.memory.appendExchange(conversation.id, turnId, question, answer);
}

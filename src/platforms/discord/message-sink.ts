import type { Message, SendableChannels, ThreadChannel } from "discord.js";
import type { Logger } from "../../log.js";
import type { TurnRequest } from "../../runner/types.js";
import type { Store } from "../../store/store.js";
import { NO_PINGS, pingOnly } from "./allowed-mentions.js";
import { DiscordReplySink, type StepPlace } from "./reply-sink.js";
import { canHoldThreads, carryIntoThread, openStepThread, threadStepPlace } from "./step-threads.js";

/**
 * How a turn started by a message shows up: in a channel the steps go into a thread opened on
 * the message (or, when that fails, replies to it); inside a thread or a DM they are plain
 * messages there. The answer is a reply to the message that may notify its author only.
 */
export function messageReplySink(
  message: Message,
  channel: SendableChannels,
  request: TurnRequest,
  store: Store,
  logger: Logger,
  stepStartDelayMs: number,
): DiscordReplySink {
  let thread: ThreadChannel | undefined;
  // Sent through the channel captured at the start, so a channel deleted mid-turn gives Discord's
  // own error (10003) in the log; a deleted question just loses the reply reference.
  const replyTo = { messageReference: message.id, failIfNotExists: false };
  const replies: StepPlace = {
    post: (content) => channel.send({ content, allowedMentions: NO_PINGS, reply: replyTo }),
  };
  const plain: StepPlace = { post: (content) => channel.send({ content, allowedMentions: NO_PINGS }) };

  return new DiscordReplySink({
    logger,
    stepStartDelayMs,
    async openStepPlace() {
      if (!canHoldThreads(message.channel)) return plain;
      thread = await openStepThread(message.channel, message.id, request.text, store, logger);
      return thread ? threadStepPlace(thread) : replies;
    },
    answer: {
      first: (content) => channel.send({ content, allowedMentions: pingOnly(message.author.id), reply: replyTo }),
      more: (content) => channel.send({ content, allowedMentions: NO_PINGS }),
    },
    beforeAnswer(reply) {
      if (thread && reply.status === "answered") {
        carryIntoThread(store, thread, reply.turnId, { author: request.userName ?? request.userId, text: request.text }, reply.text);
      }
    },
  });
}

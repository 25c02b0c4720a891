import type { StepEvent } from "../agent/types.js";
import type { ConversationRef } from "../store/types.js";

export type { StepEvent };

/** One user message for the bot, in platform-free terms. Adapters build it; nothing platform-specific passes. */
export interface TurnRequest extends ConversationRef {
  userId: string;
  /** Display name, stored with the message for people reading the audit. */
  userName?: string;
  text: string;
  /** Set by the adapter from the platform's own permissions; the runner enforces it. */
  isAdmin: boolean;
  /** The channel a thread-channel belongs to (Discord threads), for the channel allow list. */
  parentChannelId?: string;
  /** The user's role ids in this workspace, for ignored roles. */
  userRoleIds?: string[];
}

/**
 * answered / failed: the turn ran. refused: it was not allowed to run (rate limit, budget,
 * channel, length, queue) and `text` says why. ignored: refused silently, `text` is empty and
 * the sink got no reply (ignored users, or a refusal already told to this user a moment ago).
 */
export type TurnStatus = "answered" | "failed" | "refused" | "ignored";

export interface TurnReply {
  turnId: string;
  status: TurnStatus;
  /** Why the turn ended: answer, direct, iteration_limit_generated, llm_*, timeout, shutdown, error, rate_limited, ... */
  outcome: string;
  /** Markdown for the user: the answer, or a short explanation of the failure. */
  text: string;
}

/**
 * What an adapter implements to show a turn: steps as they happen, then one reply (none when the
 * turn is ignored: adapters that owe the platform an answer, like a deferred slash command, use
 * the status `submit` resolves with).
 * Calls arrive in order, never overlapping; a sink that throws is logged and does not stop the turn.
 */
export interface ReplySink {
  /**
   * When set, a step's "started" event reaches the sink only if the tool is still running after
   * this many ms; a quicker step arrives once, as its ended event (which carries the arguments).
   * Chat platforms set it to post one message per quick step instead of a post and an edit.
   */
  readonly stepStartDelayMs?: number;
  step(event: StepEvent): Promise<void> | void;
  reply(reply: TurnReply): Promise<void> | void;
}

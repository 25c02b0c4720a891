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
}

export type TurnStatus = "answered" | "failed";

export interface TurnReply {
  turnId: string;
  status: TurnStatus;
  /** Why the turn ended: answer, direct, iteration_limit_generated, llm_error, timeout, shutdown, error, ... */
  outcome: string;
  /** Markdown for the user: the answer, or a short explanation of the failure. */
  text: string;
}

/**
 * What an adapter implements to show a turn: steps as they happen, then exactly one reply.
 * Calls arrive in order, never overlapping; a sink that throws is logged and does not stop the turn.
 */
export interface ReplySink {
  step(event: StepEvent): Promise<void> | void;
  reply(reply: TurnReply): Promise<void> | void;
}

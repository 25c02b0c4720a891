import type { Logger } from "../log.js";
import type { ChannelBudget } from "./channel-budget.js";
import type { ChatSurface, Destination, PostOptions } from "../contract/surface.js";

/** What the two ways of showing a streamed answer (native stream, posted messages) share. */
export interface AnswerContext {
  readonly surface: ChatSurface;
  /** Where the answer goes; set once, before the first write. */
  destination?: Destination;
  /** The asker: the first message may notify them, and nobody else. */
  readonly notify: string;
  readonly maxMessages: number;
  /** STREAM_EDIT_INTERVAL_MS: a message is written at most once per interval. */
  readonly intervalMs: number;
  readonly budget: ChannelBudget;
  readonly logger: Logger;
  /** Called after each write that shows text; the stream tells its owner once. */
  becameVisible(): void;
}

/** Counts a write in the destination channel's budget. */
export function recordWrite(context: AnswerContext): void {
  context.budget.record(context.destination!.location.channelId);
}

/** When a message may be edited again: its interval, a rate limit, and the channel's budget. */
export function pacedAt(context: AnswerContext, lastWriteAt: number, blockedUntil: number): number {
  const channel = context.destination!.location.channelId;
  return Math.max(lastWriteAt + context.intervalMs, blockedUntil, context.budget.freeAt(channel));
}

/** The options of the answer's message `index`: the first one may notify the asker. */
export function answerOptions(context: AnswerContext, index: number): PostOptions {
  return index === 0 ? { kind: "answer", notify: context.notify } : { kind: "answer" };
}

/** Waits until the later of two `performance.now()` times (at most one edit interval, or a rate limit's wait). */
export function sleepUntil(...times: number[]): Promise<void> {
  const ms = Math.max(...times) - performance.now();
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}

import type { LlmError } from "../agent/llm-error.js";
import type { Logger } from "../log.js";
import type { AnswerTextSink, TurnReply, TurnView } from "../contract/turn-view.js";
import { hasCode } from "../errors.js";

/* What a turn's user is told when it does not end in an answer, and how replies reach its view. */

/** Why a running turn was cancelled; decides what the user is told. */
export type CancelReason = "timeout" | "shutdown" | "stopped";

export const RUNNER_TEXT = {
  timeout: (ms: number) =>
    `Sorry, that took longer than ${ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} seconds`}, so I stopped. Please try again, or ask something simpler.`,
  shutdown: "The bot restarted before I could finish this. Please ask again in a minute.",
  stopped: "Stopped.",
  unexpected: "Sorry, something went wrong on my side. The details are in the bot's log.",
};

/** The outcome and the words for a turn that failed or was cancelled. */
export function describeFailure(error: unknown, signal: AbortSignal, turnTimeoutMs: number): { outcome: string; text: string } {
  if (hasCode(error, "turn_cancelled") || signal.aborted) {
    if (signal.reason === "shutdown") return { outcome: "shutdown", text: RUNNER_TEXT.shutdown };
    if (signal.reason === "stopped") return { outcome: "stopped", text: RUNNER_TEXT.stopped };
    return { outcome: "timeout", text: RUNNER_TEXT.timeout(turnTimeoutMs) };
  }
  if (hasCode<LlmError>(error, "model_failed")) return { outcome: `llm_${error.failure}`, text: error.userMessage };
  return { outcome: "error", text: RUNNER_TEXT.unexpected };
}

/** The view's answer-text handler, if it has one; a view that throws is logged, never the agent's problem. */
export function answerTextFor(view: TurnView, logger: Logger): AnswerTextSink | undefined {
  if (!view.answerText) return undefined;
  let warned = false;
  return (event) => {
    try {
      view.answerText!(event);
    } catch (error) {
      if (!warned) logger.warn({ err: error }, "could not show the answer's text as it arrived");
      warned = true;
    }
  };
}

/** Tells the view the answer is whole (its closing is being stored); a view that fails is logged. */
export function answerDone(view: TurnView, logger: Logger): void {
  try {
    view.answerDone?.();
  } catch (error) {
    logger.warn({ err: error }, "could not tell the view the answer is whole");
  }
}

/** Shows the reply; a view that fails is logged, never the turn's problem. */
export async function finish(view: TurnView, reply: TurnReply, logger: Logger): Promise<void> {
  try {
    await view.finish(reply);
  } catch (error) {
    logger.error({ err: error, turnId: reply.turnId }, "could not deliver the reply");
  }
}

/** The error as the audit keeps it: its name, message and cause. */
export function errorDetail(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? ` (cause: ${error.cause.message})` : "";
    return `${error.name}: ${error.message}${cause}`;
  }
  return String(error);
}

import type { ApprovalOutcome, ApprovalPrompt } from "./approvals.js";
import type { Location } from "./inbound.js";

/**
 * The contract between the runner and what shows a turn (the shared presenter, or a test's
 * recorder): the runner reports steps, answer text and approvals; the view shows them.
 */

/**
 * answered / failed: the turn ran. refused: it was not allowed to run (rate limit, budget,
 * channel, length, queue) and `text` says why. ignored: refused silently, `text` is empty
 * (ignored users, or a refusal already told to this user a moment ago).
 */
type TurnStatus = "answered" | "failed" | "refused" | "ignored";

export interface TurnReply {
  turnId: string;
  status: TurnStatus;
  /** Why the turn ended: answer, direct, iteration_limit_generated, llm_*, timeout, shutdown, error, rate_limited, ... */
  outcome: string;
  /** Markdown for the user: the answer, or a short explanation of the failure. */
  text: string;
  /** Tokens the turn spent, once it ran. */
  tokens?: number;
}

/**
 * What shows a turn to its user (the shared presenter, or a test's recorder): steps as they
 * happen, then one reply. Calls arrive in order; a view that throws is logged and the turn goes on.
 */
export interface TurnView {
  /** The turn was admitted and queued: show that the bot is working on it. */
  begin?(): void;
  step(event: StepEvent): void;
  /**
   * The answer's text while the model writes it (only with STREAM_ANSWERS). `finish` still gets
   * the whole answer: what was shown of it is replaced by it.
   */
  answerText?(event: AnswerTextEvent): void;
  /**
   * The answer is whole and its turn is being stored; `finish` follows with it once it is durable.
   * A view streaming the answer writes nothing more until then.
   */
  answerDone?(): void;
  /**
   * Shows a request for approval where the steps go, with controls to approve or deny it; resolves
   * true once people can see it, false where it cannot be shown (then nobody could decide it).
   */
  askApproval?(prompt: ApprovalPrompt): Promise<boolean>;
  /** A request ended without a press (timed out, or the turn stopped): its controls make way for the outcome. */
  closeApproval?(prompt: ApprovalPrompt, outcome: ApprovalOutcome): Promise<void>;
  /** Shows the reply and clears the working indicator; resolves once the user can see it. */
  finish(reply: TurnReply): Promise<void> | void;
  /** Posts a short message of the bot's in the conversation, after the reply (the first summary's note). */
  note?(text: string): Promise<void>;
  /** The question, its place and its asker: where the asker is told the bot restarted, should this process die mid-turn. */
  whereAsked?(): { location: Location; messageId: string; isDm?: boolean; askerId: string };
  /**
   * The thread opened for this turn's output, where the exchange is remembered too (a new thread
   * on a top-level question starts with the exchange that opened it).
   */
  openedThread?(): Promise<Location | undefined>;
}

/**
 * The answer's text as the model writes it, for a view that shows it while it arrives. `delta`
 * is more text; `retracted` says the text since the last retraction was not the answer after all
 * (it came before tool calls, or a text-protocol reply turned out to be an action), so whoever
 * shows it starts over with what follows.
 */
export type AnswerTextEvent = { type: "delta"; text: string } | { type: "retracted" };

export type AnswerTextSink = (event: AnswerTextEvent) => void;

/**
 * What happened inside a turn, as it happens. `seq` numbers the tool steps of one turn from 1.
 * An ended step repeats its arguments, so it can be shown on its own. `durationMs` is the time the
 * tool ran; `approvalWaitMs`, for a tool that needed approval, the time spent waiting for a person
 * before it (kept apart so a 1 ms tool approved after a minute does not read as a minute's work).
 */
export type StepEvent =
  | { type: "tool_started"; seq: number; tool: string; args: unknown }
  | { type: "tool_finished"; seq: number; tool: string; args: unknown; output: string; durationMs: number; approvalWaitMs?: number }
  | { type: "tool_failed"; seq: number; tool: string; args: unknown; error: string; durationMs: number; approvalWaitMs?: number };

import type { AnswerTextEvent } from "../agent/answer-text.js";
import type { StepEvent } from "../agent/types.js";
import type { ConversationRef } from "../store/types.js";
import type { ApprovalOutcome, ApprovalPrompt } from "./approvals/approval-types.js";
import type { AttachmentDescriptor, Location, QuotedMessage, SharedContentSource, WorkspaceMembership } from "./incoming.js";

export type { AnswerTextEvent, StepEvent };

/** One turn for the runner: a question in a conversation, in platform-free terms. */
export interface TurnRequest extends ConversationRef {
  userId: string;
  /** Display name, stored with the message for people reading the audit. */
  userName?: string;
  text: string;
  /** The channel a thread-channel belongs to (Discord threads), for the channel allow list. */
  parentChannelId?: string;
  /** The user's role ids in this workspace, for ignored roles. */
  userRoleIds?: readonly string[];
  /** The terminal's operator: no per-user rate limit. */
  operator?: boolean;
  /** A direct message (its own rules for budgets and ignored users). */
  isDm?: boolean;
  /** For a direct message: the workspaces its sender shares with the bot, among those asked about (see IncomingMessage.memberOf). */
  senderMemberOf?: WorkspaceMembership;
  /** What the question shares besides its text: read in the turn, within its time. */
  shared?: SharedContent;
  /** The question's message, for the history index: where it is kept (its channel, a thread in it), its id, its link. */
  posted?: { channelId: string; threadId?: string; messageId: string; link?: Promise<string | undefined>; time: number };
}

/** A question's files, the message it replies to and the ones it forwards, as its platform described them. */
export interface SharedContent {
  /** Where the question was asked: a reply chain is followed there. */
  location: Location;
  attachments: AttachmentDescriptor[];
  replyTo?: QuotedMessage;
  repliesTo?: string;
  forwarded?: QuotedMessage[];
  /** How to fetch the files and earlier messages; without it, files are named but not read. */
  source?: SharedContentSource;
}

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
   * Shows a request for approval where the steps go, with controls to approve or deny it; resolves
   * true once people can see it, false where it cannot be shown (then nobody could decide it).
   */
  askApproval?(prompt: ApprovalPrompt): Promise<boolean>;
  /** A request ended without a press (timed out, or the turn stopped): its controls make way for the outcome. */
  closeApproval?(prompt: ApprovalPrompt, outcome: ApprovalOutcome): Promise<void>;
  /** Shows the reply and clears the working indicator; resolves once the user can see it. */
  finish(reply: TurnReply): Promise<void> | void;
  /**
   * The thread opened for this turn's output, where the exchange is remembered too (a new thread
   * on a top-level question starts with the exchange that opened it).
   */
  openedThread?(): Promise<Location | undefined>;
}

import type { Location } from "./inbound.js";
import { BotError } from "../errors.js";

/**
 * The platform contract, outbound: the few things the shared presenter asks of a platform. The
 * presenter decides what users see and where; a surface only says how to do it on its platform.
 */

/** A message the bot posted; the surface that posted it may keep more in it (the core never looks). */
export interface PostedMessage {
  readonly id: string;
  /**
   * The message can be edited only until then (epoch ms): Discord's slash-command replies, whose
   * interaction token lasts 15 minutes. Past it, a streamed answer goes on in a new message.
   */
  readonly editableUntil?: number;
}

/**
 * A command's reply that is the only place its answer may go (Discord's app installed to a user,
 * used in a server or DM the bot is not in: it can answer through the interaction alone). The
 * answer's first part replaces the reply and further parts are follow-ups of it, at most
 * `maxFollowUps`, past which the whole answer comes as a file (a follow-up too). Tool steps are
 * listed in the answer, as no thread can be opened.
 */
export interface ConfinedReply extends PostedMessage {
  readonly confined: {
    readonly maxFollowUps: number;
    followUp(text: string, options: PostOptions): Promise<PostedMessage>;
    followUpFile(file: { name: string; text: string; note: string }): Promise<void>;
  };
}

export const isConfined = (message: PostedMessage | undefined): message is ConfinedReply => message !== undefined && "confined" in message;

/**
 * Messages in one place (a channel, or one thread in it) are read in the order they were posted;
 * messages in different places have no order between them (Discord's thread and its channel).
 * Surfaces keep the first (their posts to one place land in the order they are made); the
 * presenter relies on the second: an answer waits for the steps only where both share a place.
 */
export function samePlace(a: Location, b: Location): boolean {
  return a.channelId === b.channelId && a.threadId === b.threadId;
}

/** Where a message goes: a channel or thread, optionally as a reply to a message there. */
export interface Destination {
  location: Location;
  /** The message this one replies to (Discord's message reference; ignored where replies are threads). */
  replyTo?: string;
}

export interface PostOptions {
  /** What the message is, for surfaces that show them differently (the terminal indents steps). */
  kind: "step" | "answer";
  /** The one user this message may notify (the asker); nobody else is ever pinged. */
  notify?: string;
  /**
   * An in-between state of a streamed answer; a later write replaces it. On a rate limit the
   * surface throws RateLimitedError at once instead of waiting (newer text goes in a later write).
   */
  interim?: boolean;
  /**
   * The message ends the answer of this turn: surfaces that offer feedback (`offersFeedback`) put
   * 👍 / 👎 controls carrying the turn's id under it; a press comes back as a FeedbackPress.
   */
  feedback?: string;
}

/**
 * The platform asked the bot to slow down (HTTP 429, Slack's `ratelimited`). Surfaces throw it
 * (for `interim` writes at least, and from native streams) so the presenter can wait
 * `retryAfterMs` and send the text gathered meanwhile in one write.
 */
export class RateLimitedError extends BotError<"platform_rate_limited"> {
  override readonly name = "RateLimitedError";
  constructor(
    readonly retryAfterMs: number,
    message = `rate limited; retry after ${retryAfterMs} ms`,
  ) {
    super("platform_rate_limited", message);
  }
}

/**
 * The platform will not (or no longer) stream this message natively: refused (a channel type,
 * a missing scope, a method the server lacks) or expired (a stream left idle too long). The
 * presenter goes on by posting and editing.
 */
export class StreamUnavailableError extends BotError<"stream_unavailable"> {
  override readonly name = "StreamUnavailableError";
  constructor(
    readonly reason: "refused" | "expired",
    message: string,
  ) {
    super("stream_unavailable", message);
  }
}

/** A tool step as a native stream shows it (Slack's task cards). */
export interface StreamTask {
  id: string;
  title: string;
  status: "in_progress" | "complete" | "error";
  /** A short result or error, once the step ended. */
  output?: string;
}

/**
 * A message the platform streams itself (Slack's chat.startStream / appendStream / stopStream).
 * Text is appended as Markdown; the surface renders it. Any method may throw
 * StreamUnavailableError (then the presenter edits `message` instead, or posts) or RateLimitedError.
 */
export interface NativeStream {
  /** The streamed message, once the platform created it. */
  readonly message: PostedMessage | undefined;
  append(markdown: string): Promise<void>;
  /** Shows a tool step in the stream; only streams that show tasks have it. */
  task?(task: StreamTask): Promise<void>;
  /**
   * Ends the stream, with `markdown` appended last in the same call; what was appended stays as
   * the message. `feedback`: the turn whose 👍 / 👎 go under it (see PostOptions.feedback).
   */
  stop(markdown?: string, options?: { feedback?: string }): Promise<void>;
}

/** The message a turn is about, for reactions, typing and threads. */
export interface MessageRef {
  location: Location;
  messageId: string;
  /** A direct message (Slack shows a DM thread's status instead of a reaction). */
  isDm?: boolean;
}

/**
 * Controls to approve or deny a tool call (Discord buttons, Slack Block Kit buttons, a typed
 * yes/no in the terminal). A press comes back through the adapter as an ApprovalPress.
 */
export interface ApprovalControls {
  /** Posts the request's text with Approve and Deny controls that carry `approvalId`. */
  post(to: Destination, text: string, approvalId: string): Promise<PostedMessage>;
  /** Replaces the request's text and controls with `text` (how it ended), once nobody can press any more. */
  settle(message: PostedMessage, text: string): Promise<void>;
}

export interface ChatSurface {
  readonly platform: string;
  /** The longest message text the platform accepts, counted after `render`. */
  readonly messageLimit: number;
  /** Answers go into the question's thread (Slack) rather than next to it (Discord, the terminal). */
  readonly answerInThread: boolean;
  /**
   * Quick tool steps are posted once, with their result, and only slow ones when they start (chat
   * platforms: half the API calls); the terminal prints every start at once.
   */
  readonly holdsQuickSteps: boolean;
  /** Posts and edits with `feedback` put 👍 / 👎 under the message (Slack's feedback buttons, Discord's components). */
  readonly offersFeedback?: boolean;
  /** Markdown (what the model and the core write) to the platform's markup, mass mentions defused. */
  render(markdown: string): string;
  /** Posts to one place show in the order they were made (see samePlace). */
  post(to: Destination, text: string, options: PostOptions): Promise<PostedMessage>;
  /** Replaces a posted message's text; a surface that cannot edit (the terminal) posts it again. */
  edit(message: PostedMessage, text: string, options: PostOptions): Promise<void>;
  /** Takes a posted message back (a slash command's placeholder for an ignored user). */
  remove?(message: PostedMessage): Promise<void>;
  /** Shows that the bot is working on a message (typing, a reaction) until the returned function is called. */
  startWorking(on: MessageRef): () => Promise<void>;
  /**
   * Opens a thread on a top-level message for the turn's steps (and answers, where they go in
   * threads). Undefined where the platform or the channel has none; throws when the platform refuses.
   */
  openThread?(on: MessageRef, title: string): Promise<Location | undefined>;
  /** Posts text as a file, with a short note as the message (an answer too long for a few messages). */
  postFile?(to: Destination, file: { name: string; text: string; note: string }): Promise<void>;
  /**
   * Optional: the platform's own streaming of an answer at `to`, for `notify` (the asker). Undefined
   * when it will not stream there (then the presenter posts and edits); may also refuse later.
   */
  startStream?(to: Destination, options: { notify: string }): NativeStream | undefined;
  /** Where the platform can ask people to approve a tool call; without it such calls do not run. */
  readonly approvals?: ApprovalControls;
  /** A direct message to one person outside any turn (budget alerts to admins); pings nobody. */
  directMessage?(userId: string, text: string): Promise<void>;
}

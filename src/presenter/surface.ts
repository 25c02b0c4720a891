import type { Location } from "../runner/incoming.js";

/**
 * The platform contract, outbound: the few things the shared presenter asks of a platform. The
 * presenter decides what users see and where; a surface only says how to do it on its platform.
 */

/** A message the bot posted; the surface that posted it may keep more in it (the core never looks). */
export interface PostedMessage {
  readonly id: string;
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
}

/** The message a turn is about, for reactions, typing and threads. */
export interface MessageRef {
  location: Location;
  messageId: string;
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
  /** Markdown (what the model and the core write) to the platform's markup, mass mentions defused. */
  render(markdown: string): string;
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
  /** Where the platform can ask people to approve a tool call; without it such calls do not run. */
  readonly approvals?: ApprovalControls;
}

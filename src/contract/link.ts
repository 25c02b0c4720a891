/**
 * The platform contract, the core's side: what a platform tells the core when it connects, and
 * the narrow services it gets back. The commands and tool states it names are described once, in
 * the runner's command catalogue.
 */
import type { ApprovalAnswer, ApprovalPress } from "./approvals.js";
import type { FeedbackAnswer, FeedbackPress } from "./feedback.js";
import type { ChannelReader } from "./channel-access.js";
import type { ChannelHistory } from "./channel-history.js";
import type { IncomingCommand, IncomingMessage, Location, SharedContentSource } from "./inbound.js";
import type { ChatSurface, PostedMessage } from "./surface.js";
import type { TurnReply } from "./turn-view.js";
import type { BotCommand, CommandGroup, CommandResult, ToolState } from "./commands.js";

/** A prompt offered to start a conversation with (Slack's assistant threads): its short title, and the message it sends. */
export interface SuggestedPrompt {
  title: string;
  message: string;
}

/** What became of an incoming message. */
export type Receipt = { status: "ignored"; reason: string } | { status: "duplicate" } | { status: "hinted" } | TurnReply;

export interface PlatformInbox {
  /**
   * Hands a message to the core. Resolves once it was dealt with (a turn answered, or nothing to
   * do); never rejects. `placeholder` is a message already posted for the answer (Discord's
   * deferred /ask reply): the answer's first part replaces it.
   */
  receive(message: IncomingMessage, options?: { placeholder?: PostedMessage }): Promise<Receipt>;
  /** Stops the turn running in a conversation at once (its user asked to); false when none ran there. */
  stop(conversation: { platform: string; workspaceId: string; channelId: string; threadId?: string }): boolean;
  /** Messages deleted on the platform: out of the history index and the memory windows. Never waits, never throws. */
  deleted(deleted: { platform: string; workspaceId: string; channelId: string; messageIds: readonly string[] }): void;
  /** A message edited on the platform: its new text in the history index, if it is there. Never waits, never throws. */
  edited(where: { platform: string; workspaceId: string; channelId: string; messageId: string }, text: string): void;
}

/** What a platform tells the core about itself when it connects. */
export interface PlatformConnection {
  surface: ChatSurface;
  /** Answer direct messages. */
  allowDms: boolean;
  /** The platform has roles (ignored roles are offered). */
  hasRoles: boolean;
  /** One person, its operator, in one place (the terminal): help leaves out roles and other people. */
  soleOperator?: boolean;
  /**
   * Each message reaches one process once, in order (the terminal: no retried deliveries, no other
   * process reading it): the intake writes no claim against a second delivery of it, and a message
   * outside a thread takes its place in line with its admission, in one transaction.
   */
  deliversOnce?: boolean;
  /** How the platform spells each command group ("/tools", or a renamed Slack command). */
  commandName(group: CommandGroup): string;
  /** What each role means here, for a refusal ("the Manage Server permission"). */
  roleNames: Record<"admin" | "moderator", string>;
  /** Fetches the files (and earlier messages of reply chains) questions share; without it they are named only. */
  content?: SharedContentSource;
  /** The link people open a message with, for search results (none on the terminal). */
  messageLink?: MessageLinker;
  /** Whether a person may read another channel of the workspace (search_history's `channel:`); without it, only the channel asked in is searched. */
  readableChannel?: ChannelReader;
  /** Reads a channel's earlier messages, page by page, for a history backfill; without it there is none. */
  channelHistory?: ChannelHistory;
}

/** Where a message is, as a link to it names it. */
interface LinkTarget extends Location {
  workspaceId: string;
  messageId: string;
  isDm: boolean;
}

/** Makes the link people open a message with (a Discord jump URL, a Slack permalink); none where there is no such thing (the terminal). */
export type MessageLinker = (message: LinkTarget) => Promise<string | undefined>;

/** The core as one platform sees it: the narrow services an adapter may use, and nothing else. */
export interface PlatformLink extends PlatformInbox {
  /** Reads the text form of a command ("tools enable NAME"); undefined when it is not one. */
  parseCommand(text: string): BotCommand | undefined;
  /** Runs a command for the person who gave it; Markdown meant for them alone. */
  runCommand(command: BotCommand, from: IncomingCommand): Promise<CommandResult>;
  /** Every command, one line each, in this platform's spelling. */
  help(): string;
  /** The tools and their state in a workspace (for autocomplete). */
  toolStates(from: IncomingCommand): Promise<ToolState[]>;
  /** The models an admin may choose for a channel (for autocomplete). */
  models(): readonly string[];
  /**
   * A press on a request for approval's Approve or Deny (or a typed yes/no). The core decides who
   * may; the platform shows the answer: in place of the request's controls, or to the presser alone.
   */
  decideApproval(press: ApprovalPress): Promise<ApprovalAnswer>;
  /** Up to four prompts to start a conversation with, from the tools enabled in the workspace (Slack's assistant threads). */
  suggestedPrompts(from: IncomingCommand): Promise<SuggestedPrompt[]>;
  /**
   * A person's own page (Slack's App Home), in Markdown: their usage today and what their daily
   * budgets leave; for admins, a summary of the workspace's settings and tools too.
   */
  home(from: IncomingCommand): Promise<{ usage: string; admin?: string }>;
  /** A press on an answer's 👍 or 👎 (see PostOptions.feedback); the answer is for the presser alone. Never rejects. */
  recordFeedback(press: FeedbackPress): Promise<FeedbackAnswer>;
}

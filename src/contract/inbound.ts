import { BotError } from "../errors.js";

/**
 * The platform contract, inbound: what an adapter makes of a platform event. Everything after
 * this (ignoring, deduplication, bot threads, admission, ordering, the turn) is the core's.
 */

/** Who someone is in a workspace, in platform-free terms; adapters map their own permissions to it. */
export type Role = "admin" | "moderator" | "member";

export interface Actor {
  id: string;
  /** Display name, stored with the message for people reading the audit. */
  name?: string;
  role: Role;
  isBot: boolean;
  /** The person's role ids in this workspace (Discord roles), for ignored roles. */
  roleIds?: readonly string[];
  /** The operator at the terminal: trusted like an admin, and not rate limited per user. */
  operator?: boolean;
}

/**
 * Where a message is. Discord threads are channels of their own (`channelId` is the thread,
 * `parentChannelId` its channel); Slack threads are a timestamp in a channel (`threadId`).
 */
export interface Location {
  channelId: string;
  threadId?: string;
  parentChannelId?: string;
}

/**
 * A file on a message, described but not fetched. Only adapters fill it in, from the platform's
 * own file fields: never from an address in a message's text.
 */
export interface AttachmentDescriptor {
  name: string;
  /** The platform's declared content type, when it gives one. */
  contentType?: string;
  /** Bytes, as the platform declares them. */
  size?: number;
  /** Where the platform serves it (its own file host only). */
  url?: string;
}

/**
 * A message another one points to: the one it replies to (Discord's message_reference), one it
 * forwards (Discord's message snapshots, Slack's shared messages), or an earlier link of a reply chain.
 */
export interface QuotedMessage {
  messageId?: string;
  authorId?: string;
  authorName?: string;
  authorIsBot?: boolean;
  /** Posted by this bot. */
  isOwn?: boolean;
  text: string;
  attachments: AttachmentDescriptor[];
  /** Messages this one forwards. */
  forwarded?: QuotedMessage[];
  /** The id of the message this one replies to, for following a reply chain. */
  repliesTo?: string;
}

/**
 * What the core may fetch from a platform while it runs a turn (never before: the intake's
 * ordered section waits for nobody). Optional: without it, files are named but not read.
 */
export interface SharedContentSource {
  /**
   * Downloads a file the platform described, from its own file host only (build it on
   * fetchFromFileHost). Throws when it cannot: FileUnavailable says why in words the model may read.
   */
  fetchFile(file: AttachmentDescriptor, limits: FileLimits, signal: AbortSignal): Promise<FetchedFile>;
  /** A message by id in a place (the next link of a reply chain); undefined when it is gone. */
  fetchMessage?(where: Location, messageId: string, signal: AbortSignal): Promise<QuotedMessage | undefined>;
}

/** A file a platform could not hand over; the message says why, in words the model may read. */
export class FileUnavailable extends BotError<"file_unavailable"> {
  override readonly name = "FileUnavailable";
  constructor(message: string, options?: ErrorOptions) {
    super("file_unavailable", message, options);
  }
}

/**
 * Where a message stands in its platform's own order of messages. A conversation's turns run in
 * this order, whichever process received them and whatever order they arrived in.
 */
export interface PlatformOrder {
  /**
   * Larger is later: Slack's ts in microseconds, Discord's snowflake. A decimal integer below 2^63
   * (a snowflake is beyond a JavaScript number's exact range).
   */
  key: string;
  /**
   * When the platform stamped the message (its clock, ms since the epoch), set where an earlier
   * message may be delivered after a later one: Slack sends each event in its own HTTP request
   * (or over any of several sockets), to whichever process. A turn then holds back until shortly
   * after this time (TURN_ORDER_HOLD_MS) for an earlier message still on its way. Unset where a
   * conversation's messages arrive in order (a Discord guild's events come over one gateway connection).
   */
  sentAt?: number;
}

export interface IncomingMessage extends Location {
  platform: string;
  workspaceId: string;
  /**
   * The message's id in its channel, the same for every delivery and every edit of it (Discord's
   * message id, Slack's ts): the core answers it at most once, and threads and reactions go on it.
   */
  messageId: string;
  /** The platform's id for this delivery, for the log. */
  eventId?: string;
  /** Its place in the platform's order; unset (the terminal), messages run in the order they arrive. */
  order?: PlatformOrder;
  isDm: boolean;
  actor: Actor;
  /** Resolves details the adapter must ask the platform for (Slack's users.info); called once the message has its place in line. */
  resolveActor?: () => Promise<Actor>;
  /**
   * For a direct message: which of these workspaces its sender is a member of, with the bot there
   * too (Discord: the servers they share with it). A DM follows the ignore lists of its own
   * workspace and of these, never those of a workspace its sender is not in (anyone can make one).
   * Without it, a DM follows its own workspace's alone (Slack: the DM's team). Never rejects.
   */
  memberOf?: WorkspaceMembership;
  /** The question, made plain: the bot's mention removed, platform markup made readable. */
  text: string;
  mentionsBot: boolean;
  attachments: AttachmentDescriptor[];
  /** The message this one replies to, when the platform sent it along. */
  replyTo?: QuotedMessage;
  /** The id of the message this one replies to, also when it was not sent along (the core then fetches it). */
  repliesTo?: string;
  /** Messages this one forwards, read like its own content. */
  forwarded?: QuotedMessage[];
  /** An edit of an earlier message (Slack re-sends an edited mention with a new event id). */
  isEdit: boolean;
  /** Joins, pins, deletions and other messages nobody typed as a question. */
  isSystem: boolean;
  /** Posted by the bot itself. */
  isOwn: boolean;
  /** A slash command (/ask) rather than a message: always for the bot. */
  viaCommand?: boolean;
  /**
   * A scheduled task's run: its turn is a conversation of its own (this key), so it neither reads
   * nor writes its channel's memory window; the thread opened on it continues that conversation.
   */
  ownConversation?: string;
}

/** Of these workspace ids, the ones a message's sender is a member of (see IncomingMessage.memberOf). */
export type WorkspaceMembership = (workspaceIds: readonly string[]) => Promise<readonly string[]>;

/**
 * The workspace of direct messages on a platform where they belong to none (Discord's): one daily
 * budget and one ignore list for all of them, which only BOT_ADMIN_USER_IDS can change (nobody
 * else is an admin outside a workspace).
 */
export const DIRECT_MESSAGES_WORKSPACE = "dm";

/** A settings command as the platform received it, already read into a command. */
export interface IncomingCommand extends Location {
  platform: string;
  workspaceId: string;
  isDm: boolean;
  actor: Actor;
}

/**
 * A question asked through a command (/ask) or typed in the terminal: always for the bot, never an
 * edit or a system message. `messageId` is the message it lives in (the command's reply or posted question).
 */
export function commandQuestion(
  from: IncomingCommand,
  question: { messageId: string; eventId?: string; order?: PlatformOrder; text: string; attachments?: AttachmentDescriptor[] },
): IncomingMessage {
  return {
    ...from,
    ...question,
    attachments: question.attachments ?? [],
    mentionsBot: true,
    viaCommand: true,
    isEdit: false,
    isSystem: false,
    isOwn: false,
  };
}

/** A thread, named the same way on every platform: the channel it belongs to and its own id. */
export interface ThreadRef {
  /** The channel the thread belongs to. */
  channelId: string;
  threadId: string;
}

/** The thread a location is in, named by its channel and thread id on every platform. */
export function threadOf(location: Location): ThreadRef | undefined {
  if (location.threadId) return { channelId: location.channelId, threadId: location.threadId };
  if (location.parentChannelId) return { channelId: location.parentChannelId, threadId: location.channelId };
  return undefined;
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

/** What the core allows one download (see the attachment settings). */
export interface FileLimits {
  maxBytes: number;
  /** Images fail past maxBytes; text files keep their first maxBytes. */
  overflow: "fail" | "truncate";
  timeoutMs: number;
}

/** A downloaded file, not yet trusted: the core checks the bytes against the declared type. */
export interface FetchedFile {
  bytes: Buffer;
  /** The Content-Type the host sent. */
  contentType?: string;
  /** Only the first `maxBytes` were read. */
  truncated: boolean;
}

import type { ConversationRef } from "../store/types.js";
import type { SharedContent, WorkspaceMembership } from "../contract/inbound.js";
import type { AskerChannelReader } from "../contract/channel-access.js";

/** One turn for the runner: a question in a conversation, in platform-free terms. */
export interface TurnRequest extends ConversationRef {
  userId: string;
  /** The question's message on its platform (IncomingMessage.messageId), which the summary's identifier index points at. */
  messageId?: string;
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
  /** Whether the asker may read another channel of the workspace (search_history's `channel:`); none: only this one. */
  readChannel?: AskerChannelReader;
}

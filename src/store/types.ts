/** Where a conversation happens, in platform-free terms. Discord threads are channels of their own; Slack threads are not. */
export interface ConversationRef {
  platform: string;
  workspaceId: string;
  channelId: string;
  threadId?: string;
}

export interface WorkspaceRef {
  platform: string;
  workspaceId: string;
}

/** What memory keeps of a file shared with a question: a description, never its content. */
export interface StoredAttachment {
  name: string;
  type?: string;
  size?: number;
}

export interface StoredMessage {
  role: "user" | "assistant";
  author: string | null;
  text: string;
  /** The files shared with a question (absent when there were none). */
  attachments?: StoredAttachment[];
}

/** A conversation's row: its id, and the last message id outside its memory window ("memory clear"). */
export interface Conversation {
  id: number;
  windowStart: number;
}

/** One string per conversation, the same in every process: the turn queue's key. */
export const conversationKey = (ref: ConversationRef): string => JSON.stringify([ref.platform, ref.workspaceId, ref.channelId, ref.threadId ?? ""]);

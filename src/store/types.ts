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

export interface StoredMessage {
  role: "user" | "assistant";
  author: string | null;
  text: string;
}

import type { Db } from "./database.js";
import type { ConversationRef, StoredAttachment, StoredMessage } from "./types.js";

export interface Conversation {
  id: number;
  windowStart: number;
}

/** Rough token count (about four characters a token): enough to keep one huge message from filling the context. */
const estimateTokens = (text: string): number => Math.ceil(text.length / 4);

/**
 * Per-conversation windowed memory: the last k exchanges (user message + final answer),
 * read newest-first through the (conversation_id, id) index so the cost never grows with history.
 */
export class MemoryStore {
  private readonly findConversation;
  private readonly insertConversation;
  private readonly selectWindow;
  private readonly clearWindow;
  private readonly insertMessage;

  constructor(db: Db) {
    this.findConversation = db.prepare<[string, string, string, string], { id: number; windowStart: number }>(
      `SELECT id, window_start AS windowStart FROM conversations
       WHERE platform = ? AND workspace_id = ? AND channel_id = ? AND thread_id = ?`,
    );
    this.insertConversation = db.prepare<[string, string, string, string, number], { id: number }>(
      `INSERT INTO conversations (platform, workspace_id, channel_id, thread_id, created_at)
       VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (platform, workspace_id, channel_id, thread_id) DO UPDATE SET platform = excluded.platform
       RETURNING id`,
    );
    this.selectWindow = db.prepare<[number, number, number], StoredRow>(
      `SELECT role, author, text, attachments FROM messages
       WHERE conversation_id = ? AND id > ?
       ORDER BY id DESC LIMIT ?`,
    );
    this.clearWindow = db.prepare<[number]>(
      `UPDATE conversations SET window_start = COALESCE((SELECT MAX(id) FROM messages), 0) WHERE id = ?`,
    );
    this.insertMessage = db.prepare<[number, string | null, string, string | null, string, string | null, number]>(
      `INSERT INTO messages (conversation_id, turn_id, role, author, text, attachments, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
  }

  conversation(ref: ConversationRef): Conversation {
    const key = [ref.platform, ref.workspaceId, ref.channelId, ref.threadId ?? ""] as const;
    const found = this.findConversation.get(...key);
    if (found) return found;
    const created = this.insertConversation.get(...key, Date.now());
    return { id: created!.id, windowStart: 0 };
  }

  /**
   * The newest `exchanges` exchanges, oldest first, trimmed to about `tokenBudget` tokens:
   * older exchanges go first; an exchange that alone exceeds the budget is shortened.
   * Takes the conversation the caller already looked up, or its reference.
   */
  window(where: ConversationRef | Conversation, exchanges: number, tokenBudget: number): StoredMessage[] {
    const conversation = "windowStart" in where ? where : this.conversation(where);
    const newestFirst = this.selectWindow.all(conversation.id, conversation.windowStart, exchanges * 2).map(fromRow);
    const kept: StoredMessage[] = [];
    let used = 0;
    // Rows come newest first as (answer, question) pairs; keep whole pairs while they fit.
    for (let i = 0; i + 1 < newestFirst.length; i += 2) {
      const pair = [newestFirst[i]!, newestFirst[i + 1]!];
      const cost = estimateTokens(pair[0]!.text) + estimateTokens(pair[1]!.text);
      if (used + cost > tokenBudget) {
        if (kept.length === 0) {
          const share = Math.floor((tokenBudget * 4) / 2);
          kept.push(...pair.map((m) => ({ ...m, text: shorten(m.text, share) })));
        }
        break;
      }
      kept.push(...pair);
      used += cost;
    }
    return kept.reverse();
  }

  /** Stores one exchange (the question's files as descriptions only). Callers run it inside the transaction that closes the turn. */
  appendExchange(conversationId: number, turnId: string, user: { author: string; text: string; attachments?: StoredAttachment[] }, answer: string): void {
    const now = Date.now();
    const attachments = user.attachments?.length ? JSON.stringify(user.attachments) : null;
    this.insertMessage.run(conversationId, turnId, "user", user.author, user.text, attachments, now);
    this.insertMessage.run(conversationId, turnId, "assistant", null, answer, null, now);
  }

  /** Forgets the window (the messages stay stored for the audit trail, outside any window). */
  clear(ref: ConversationRef): void {
    this.clearWindow.run(this.conversation(ref).id);
  }
}

type StoredRow = Omit<StoredMessage, "attachments"> & { attachments: string | null };

function fromRow({ attachments, ...message }: StoredRow): StoredMessage {
  return attachments ? { ...message, attachments: JSON.parse(attachments) as StoredAttachment[] } : message;
}

function shorten(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  return `${text.slice(0, Math.max(0, maxChars - 1))}…`;
}

import { trimWindow } from "../memory-window.js";
import { attachmentsJson, messageFromRow, storable } from "../turn-records.js";
import type { ConversationStore } from "../store.js";
import type { Conversation, ConversationRef, StoredAttachment, StoredMessage } from "../types.js";
import { DataVersion } from "./data-version.js";
import type { Db } from "./database.js";
import { type CachedMessage, WindowCache } from "./window-cache.js";

type MessageRow = Parameters<typeof messageFromRow>[0];
/** A window row with what the summary's read of dropped messages needs too (see WindowCache.dropped). */
type WindowRow = MessageRow & { id: number; createdAt: number; sourceId: string | null };

const cachedFromRow = ({ id, createdAt, sourceId, ...row }: WindowRow): CachedMessage => ({ message: messageFromRow(row), id, createdAt, sourceId });

/**
 * Per-conversation windowed memory: the last k exchanges (user message + final answer),
 * read newest-first through the (conversation_id, id) index so the cost never grows with history,
 * and kept in a cache of recent windows (see WindowCache).
 */
export class SqliteConversations implements ConversationStore {
  private readonly find;
  private readonly insert;
  private readonly selectWindow;
  private readonly clearWindow;
  private readonly insertMessage;
  private readonly insertSeeded;
  private readonly takeSeed: (id: number, turnId: string) => void;
  /** The turn log tells it when the transaction that appended exchanges commits or rolls back. */
  readonly cache: WindowCache;

  constructor(db: Db) {
    this.cache = new WindowCache(DataVersion.of(db));
    this.find = db.prepare<[string, string, string, string], Conversation & { seedTurnId: string | null }>(
      `SELECT id, window_start AS windowStart, seed_turn_id AS seedTurnId FROM conversations
       WHERE platform = ? AND workspace_id = ? AND channel_id = ? AND thread_id = ?`,
    );
    this.insertSeeded = db.prepare<[string, string, string, string, number, string]>(
      `INSERT INTO conversations (platform, workspace_id, channel_id, thread_id, created_at, seed_turn_id) VALUES (?, ?, ?, ?, ?, ?)`,
    );
    const clearSeed = db.prepare<[number]>(`UPDATE conversations SET seed_turn_id = NULL WHERE id = ?`);
    // The seed turn's exchange as it was stored in its own conversation, in its order.
    const copySeed = db.prepare<[number, string]>(
      `INSERT INTO messages (conversation_id, turn_id, role, author, text, attachments, source_id, created_at)
       SELECT ?, m.turn_id, m.role, m.author, m.text, m.attachments, m.source_id, m.created_at
       FROM turns t JOIN messages m ON m.turn_id = t.id AND m.conversation_id = t.conversation_id
       WHERE t.id = ? ORDER BY m.id`,
    );
    this.takeSeed = db.transaction((id: number, turnId: string) => {
      clearSeed.run(id);
      copySeed.run(id, turnId);
    });
    this.insert = db.prepare<[string, string, string, string, number], { id: number }>(
      `INSERT INTO conversations (platform, workspace_id, channel_id, thread_id, created_at)
       VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (platform, workspace_id, channel_id, thread_id) DO UPDATE SET platform = excluded.platform
       RETURNING id`,
    );
    this.selectWindow = db.prepare<[number, number, number], WindowRow>(
      `SELECT id, role, author, text, attachments, created_at AS createdAt, source_id AS sourceId FROM messages
       WHERE conversation_id = ? AND id > ?
       ORDER BY id DESC LIMIT ?`,
    );
    this.clearWindow = db.prepare<[number]>(
      `UPDATE conversations SET window_start = COALESCE((SELECT MAX(id) FROM messages WHERE conversation_id = conversations.id), window_start)
       WHERE id = ?`,
    );
    this.insertMessage = db.prepare<[number, string | null, string, string | null, string, string | null, string | null, number]>(
      `INSERT INTO messages (conversation_id, turn_id, role, author, text, attachments, source_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
  }

  /** The conversation's row, created on first use (synchronous: also used inside the turn log's transactions). */
  openNow(ref: ConversationRef): Conversation {
    const key = [ref.platform, ref.workspaceId, ref.channelId, ref.threadId ?? ""] as const;
    const found = this.find.get(...key);
    if (!found) return { id: this.insert.get(...key, Date.now())!.id, windowStart: 0 };
    if (found.seedTurnId !== null) {
      // The first use of a thread's conversation: it starts with the exchange that opened the thread.
      this.takeSeed(found.id, found.seedTurnId);
      this.cache.drop(found.id);
    }
    return { id: found.id, windowStart: found.windowStart };
  }

  /**
   * A thread opened for a turn's answer starts its conversation with the turn's exchange. Copied
   * only once someone follows up there (see openNow): most threads never get a follow-up. Where
   * the thread's conversation is already there (a follow-up came before this turn closed), the
   * exchange goes in now. Called inside the transaction that closes the turn.
   */
  startThreadWith(
    thread: ConversationRef,
    turnId: string,
    question: { author: string; text: string; attachments?: StoredAttachment[]; sourceId?: string },
    answer: string,
  ): void {
    const key = [thread.platform, thread.workspaceId, thread.channelId, thread.threadId ?? ""] as const;
    const found = this.find.get(...key);
    if (found) this.appendExchange(found.id, turnId, question, answer);
    else this.insertSeeded.run(...key, Date.now(), turnId);
  }

  /** Stores one exchange (the question's files as descriptions only); the turn log calls it inside the transaction that closes the turn. */
  appendExchange(
    conversationId: number,
    turnId: string,
    question: { author: string; text: string; attachments?: StoredAttachment[]; sourceId?: string },
    answer: string,
  ): void {
    const now = Date.now();
    // The rows as stored, also what the cached window gets (parsed back, as a read would give them).
    const asked: MessageRow = {
      role: "user",
      author: storable(question.author),
      text: storable(question.text),
      attachments: attachmentsJson(question.attachments),
    };
    const answered: MessageRow = { role: "assistant", author: null, text: storable(answer), attachments: null };
    const sourceId = question.sourceId ?? null;
    // Two statements: one with RETURNING (to learn both ids) costs more than the second statement.
    const askedId = this.insertMessage.run(conversationId, turnId, asked.role, asked.author, asked.text, asked.attachments, sourceId, now).lastInsertRowid;
    const answeredId = this.insertMessage.run(conversationId, turnId, answered.role, answered.author, answered.text, null, null, now).lastInsertRowid;
    this.cache.appended(
      conversationId,
      { message: messageFromRow(asked), id: Number(askedId), createdAt: now, sourceId },
      { message: messageFromRow(answered), id: Number(answeredId), createdAt: now, sourceId: null },
    );
  }

  async open(ref: ConversationRef): Promise<Conversation> {
    return this.openNow(ref);
  }

  async window(where: ConversationRef | Conversation, exchanges: number, tokenBudget: number): Promise<StoredMessage[]> {
    const { id, windowStart } = "windowStart" in where ? where : this.openNow(where);
    const count = exchanges * 2;
    return trimWindow(
      this.cache.rows(id, windowStart, count, (limit) => this.selectWindow.all(id, windowStart, limit).map(cachedFromRow)),
      tokenBudget,
    );
  }

  async clear(ref: ConversationRef): Promise<void> {
    const { id } = this.openNow(ref);
    this.clearWindow.run(id);
    this.cache.drop(id);
  }
}

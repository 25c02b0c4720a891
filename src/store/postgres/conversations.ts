import type pg from "pg";
import { trimWindow } from "../memory-window.js";
import { messageFromRow } from "../turn-records.js";
import type { ConversationStore } from "../store.js";
import type { Conversation, ConversationRef, StoredMessage } from "../types.js";
import type { Queryable } from "./connection.js";

type MessageRow = Parameters<typeof messageFromRow>[0];

const keyOf = (ref: ConversationRef) => [ref.platform, ref.workspaceId, ref.channelId, ref.threadId ?? ""];

const FIND_OR_CREATE = `
  WITH found AS (
    SELECT id, window_start FROM conversations
    WHERE platform = $1 AND workspace_id = $2 AND channel_id = $3 AND thread_id = $4
  ), created AS (
    INSERT INTO conversations (platform, workspace_id, channel_id, thread_id, created_at)
    SELECT $1, $2, $3, $4, $5 WHERE NOT EXISTS (SELECT 1 FROM found)
    ON CONFLICT (platform, workspace_id, channel_id, thread_id) DO NOTHING
    RETURNING id, window_start
  )
  SELECT id, window_start AS "windowStart" FROM found UNION ALL SELECT id, window_start FROM created`;

/**
 * The conversation's row in one round trip: found, or created. Two processes creating it at once:
 * the loser's insert does nothing and its statement saw no row, so it looks again.
 */
export async function openConversation(db: Queryable, ref: ConversationRef): Promise<Conversation> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const { rows } = await db.query<Conversation>(FIND_OR_CREATE, [...keyOf(ref), Date.now()]);
    if (rows[0]) return rows[0];
  }
  throw new Error("could not find or create the conversation");
}

/** Per-conversation windowed memory, read newest first through the (conversation_id, id) index. */
export class PostgresConversations implements ConversationStore {
  constructor(private readonly pool: pg.Pool) {}

  open(ref: ConversationRef): Promise<Conversation> {
    return openConversation(this.pool, ref);
  }

  async window(where: ConversationRef | Conversation, exchanges: number, tokenBudget: number): Promise<StoredMessage[]> {
    const { rows } =
      "windowStart" in where
        ? await this.pool.query<MessageRow>(
            `SELECT role, author, text, attachments FROM messages WHERE conversation_id = $1 AND id > $2 ORDER BY id DESC LIMIT $3`,
            [where.id, where.windowStart, exchanges * 2],
          )
        : await this.pool.query<MessageRow>(
            `SELECT m.role, m.author, m.text, m.attachments FROM conversations c
             JOIN messages m ON m.conversation_id = c.id AND m.id > c.window_start
             WHERE c.platform = $1 AND c.workspace_id = $2 AND c.channel_id = $3 AND c.thread_id = $4
             ORDER BY m.id DESC LIMIT $5`,
            [...keyOf(where), exchanges * 2],
          );
    return trimWindow(rows.map(messageFromRow), tokenBudget);
  }

  async clear(ref: ConversationRef): Promise<void> {
    const { id } = await this.open(ref);
    await this.pool.query(
      `UPDATE conversations SET window_start = COALESCE((SELECT MAX(id) FROM messages WHERE conversation_id = $1), window_start) WHERE id = $1`,
      [id],
    );
  }
}

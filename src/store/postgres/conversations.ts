import type pg from "pg";
import { trimWindow } from "../memory-window.js";
import { messageFromRow } from "../turn-records.js";
import type { ConversationStore } from "../store.js";
import type { Conversation, ConversationRef, StoredMessage } from "../types.js";
import type { Queryable } from "./connection.js";

type MessageRow = Parameters<typeof messageFromRow>[0];

const keyOf = (ref: ConversationRef) => [ref.platform, ref.workspaceId, ref.channelId, ref.threadId ?? ""];

/**
 * After a CTE `found` (id, seed_turn_id): the first use of a thread's conversation copies in the
 * exchange that opened the thread (see the turn log's closing). The UPDATE takes the seed once:
 * a second process opening the conversation at the same time waits for the row, then finds it
 * taken and copies nothing.
 */
export const TAKE_SEED = `
  seed AS (
    UPDATE conversations c SET seed_turn_id = NULL FROM found f
    WHERE c.id = f.id AND f.seed_turn_id IS NOT NULL AND c.seed_turn_id IS NOT NULL
    RETURNING c.id, f.seed_turn_id
  ), seeded AS (
    INSERT INTO messages (conversation_id, turn_id, role, author, text, attachments, source_id, created_at)
    SELECT seed.id, m.turn_id, m.role, m.author, m.text, m.attachments, m.source_id, m.created_at
    FROM seed JOIN turns t ON t.id = seed.seed_turn_id JOIN messages m ON m.turn_id = t.id AND m.conversation_id = t.conversation_id
    ORDER BY m.id
  )`;

const FIND_OR_CREATE = `
  WITH found AS (
    SELECT id, window_start, seed_turn_id FROM conversations
    WHERE platform = $1 AND workspace_id = $2 AND channel_id = $3 AND thread_id = $4
  ), ${TAKE_SEED}, created AS (
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
async function openConversation(db: Queryable, ref: ConversationRef): Promise<Conversation> {
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
    // By place (a command reading the memory), opened first: a thread's conversation may still have to take its seed.
    const { id, windowStart } = "windowStart" in where ? where : await this.open(where);
    const { rows } = await this.pool.query<MessageRow>(
      `SELECT role, author, text, attachments FROM messages WHERE conversation_id = $1 AND id > $2 ORDER BY id DESC LIMIT $3`,
      [id, windowStart, exchanges * 2],
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

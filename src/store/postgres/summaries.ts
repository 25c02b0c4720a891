import { newTurnId } from "../turn-ids.js";
import type pg from "pg";
import {
  summaryFromRow,
  type DroppedMessage,
  type SummaryStore,
  type SummaryRow,
  type SummaryState,
  type SummaryUpdate,
  type SummaryUsage,
} from "../summary-store.js";
import { storable, storableJson, utcDay } from "../turn-records.js";
import type { Conversation } from "../types.js";
import { inTransaction, type Queryable } from "./connection.js";
import { addToRollup } from "../usage-rollup-sql.js";

/** A summary call's turn row, just recorded, into the usage rollup. */
const RECORDED_ROLLUP = addToRollup("FROM recorded t JOIN conversations c ON c.id = t.conversation_id", "true");

/** Conversation summaries in PostgreSQL: every write is one conditional UPDATE on the versioned row. */
export class PostgresSummaries implements SummaryStore {
  constructor(private readonly pool: pg.Pool) {}

  async get(conversationId: number): Promise<SummaryState> {
    const { rows } = await this.pool.query<SummaryRow>(`SELECT * FROM conversation_summaries WHERE conversation_id = $1`, [conversationId]);
    return summaryFromRow(conversationId, rows[0]);
  }

  async dropped(conversation: Conversation, coveredTo: number, keepMessages: number, limit: number): Promise<DroppedMessage[]> {
    const { id, windowStart } = conversation;
    const { rows } = await this.pool.query<DroppedMessage & { id: string; createdAt: string }>(
      `SELECT id, role, author, text, created_at AS "createdAt", source_id AS "sourceId" FROM messages
       WHERE conversation_id = $1 AND id > $2
         AND id < COALESCE((SELECT MIN(id) FROM (SELECT id FROM messages WHERE conversation_id = $1 AND id > $3 ORDER BY id DESC LIMIT $4) w), 0)
       ORDER BY id LIMIT $5`,
      [id, Math.max(windowStart, coveredTo), windowStart, keepMessages, limit],
    );
    return rows.map((row) => ({ ...row, id: Number(row.id), createdAt: Number(row.createdAt) }));
  }

  async claim(conversationId: number, version: number, now: number, leaseMs: number): Promise<boolean> {
    // At version 0 the row may not be there yet: the claim creates it (a conflict takes the existing one, on the same conditions).
    const sql =
      version === 0
        ? `INSERT INTO conversation_summaries (conversation_id, claimed_until) VALUES ($2, $1)
           ON CONFLICT (conversation_id) DO UPDATE SET claimed_until = $1
           WHERE conversation_summaries.version = $3 AND conversation_summaries.claimed_until <= $4`
        : `UPDATE conversation_summaries SET claimed_until = $1 WHERE conversation_id = $2 AND version = $3 AND claimed_until <= $4`;
    const { rowCount } = await this.pool.query(sql, [now + leaseMs, conversationId, version, now]);
    return rowCount === 1;
  }

  async save(conversationId: number, version: number, update: SummaryUpdate, usage: SummaryUsage): Promise<boolean> {
    return inTransaction(this.pool, async (client) => {
      await recordUsage(client, usage);
      const { rowCount } = await client.query(
        `UPDATE conversation_summaries SET version = version + 1, summary = $3, identifiers = $4, covered_to = $5,
           covers_from = COALESCE(covers_from, $6), covers_until = $7, updated_at = $8, failures = 0, retry_at = 0, claimed_until = 0
         WHERE conversation_id = $1 AND version = $2`,
        [
          conversationId,
          version,
          storable(update.summary),
          storableJson(update.identifiers),
          update.coveredTo,
          update.coversFrom,
          update.coversUntil,
          update.updatedAt,
        ],
      );
      return rowCount === 1;
    });
  }

  async failed(conversationId: number, version: number, retryAt: number, usage: SummaryUsage): Promise<boolean> {
    return inTransaction(this.pool, async (client) => {
      await recordUsage(client, usage);
      const { rowCount } = await client.query(
        `UPDATE conversation_summaries SET version = version + 1, failures = failures + 1, retry_at = $3, claimed_until = 0
         WHERE conversation_id = $1 AND version = $2`,
        [conversationId, version, retryAt],
      );
      return rowCount === 1;
    });
  }

  async markNoted(conversationId: number): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `INSERT INTO conversation_summaries (conversation_id, noted) VALUES ($1, 1)
       ON CONFLICT (conversation_id) DO UPDATE SET noted = 1 WHERE conversation_summaries.noted = 0`,
      [conversationId],
    );
    return rowCount === 1;
  }

  async reset(conversationId: number, coveredTo: number): Promise<void> {
    await this.pool.query(
      `INSERT INTO conversation_summaries (conversation_id, covered_to) VALUES ($1, $2)
       ON CONFLICT (conversation_id) DO UPDATE SET version = conversation_summaries.version + 1, summary = '', identifiers = '[]',
         covered_to = $2, covers_from = NULL, covers_until = NULL, updated_at = NULL, failures = 0, retry_at = 0, claimed_until = 0`,
      [conversationId, coveredTo],
    );
  }
}

/** A summary call's tokens as usage of kind "summary", inside the transaction of the outcome it led to. */
async function recordUsage(client: Queryable, call: SummaryUsage): Promise<void> {
  const now = Date.now();
  const total = call.promptTokens + call.completionTokens;
  // One statement: the usage row, the day's tokens and the rollup commit together (a summary call is no person's: no user row).
  await client.query(
    `WITH usage AS (
       INSERT INTO token_usage_daily (platform, workspace_id, day, tokens)
       SELECT $10, $11, $12, $9::bigint WHERE $9::bigint > 0
       ON CONFLICT (platform, workspace_id, day) DO UPDATE SET tokens = token_usage_daily.tokens + EXCLUDED.tokens
     ), recorded AS (
       INSERT INTO turns (id, conversation_id, user_id, status, outcome, started_at, ended_at, duration_ms, prompt_tokens, completion_tokens,
         total_tokens, instance, model, channel_id, kind)
       VALUES ($1, $2, '', $3, 'summary', $4, $5, $6, $7, $8, $9, '', $13, $14, 'summary')
       RETURNING *
     )
     ${RECORDED_ROLLUP.channels}`,
    [
      newTurnId(),
      call.conversationId,
      call.ok ? "answered" : "failed",
      now - call.durationMs,
      now,
      call.durationMs,
      call.promptTokens,
      call.completionTokens,
      total,
      call.workspace.platform,
      call.workspace.workspaceId,
      utcDay(now),
      call.model,
      call.channelId,
    ],
  );
}

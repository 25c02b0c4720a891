import type pg from "pg";
import type { ChannelRef } from "../channel-settings-store.js";
import {
  hitOf,
  indexedText,
  queryWords,
  ranked,
  scopeToken,
  type DeletedMessages,
  type Forgotten,
  type HistoryEntry,
  type HistoryHit,
  type HistoryStore,
  type HistoryPruneCounts,
  type HistoryQuery,
  type HitRow,
} from "../history-store.js";
import type { WorkspaceRef } from "../types.js";
import { inTransaction, type Queryable } from "./connection.js";

/** The index's columns as rows are written (the SQLite copy adds the id before them). */
export const HISTORY_COLUMNS = [
  "platform",
  "workspace_id",
  "channel_id",
  "thread_id",
  "message_id",
  "kind",
  "author_id",
  "author_name",
  "text",
  "link",
  "turn_id",
  "created_at",
  "scope",
];

/** Many rows in one statement: each column as an array, unnested. */
const INSERT = `
  INSERT INTO history_messages (${HISTORY_COLUMNS.join(", ")})
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::bigint[], $13::text[])
  ON CONFLICT (platform, workspace_id, channel_id, message_id) DO`;
const UPSERT = `${INSERT} UPDATE SET
    kind = excluded.kind, text = excluded.text, author_name = excluded.author_name,
    link = COALESCE(excluded.link, history_messages.link), turn_id = COALESCE(excluded.turn_id, history_messages.turn_id)`;

/** A message as a delete or edit event names it: by id, in its channel or (Discord) its thread. */
const PLACE = `platform = $1 AND workspace_id = $2 AND message_id = ANY($3::text[]) AND (channel_id = $4 OR thread_id = $4)`;

/** Matches ranked at most, the channel's newest (as on SQLite: see its CANDIDATES). */
const CANDIDATES = 64;

/**
 * The query: the channel's token and the words (punctuation a separator, as in the index), all of
 * them (plainto_tsquery's &) or any. The query is an expression of the parameters, not a CTE, so the
 * planner uses the GIN index for it. Punctuation, & included, is gone, so swapping the operator is safe.
 * No ts_rank: it reads every match's tsvector (thousands for a common word); the newest matches
 * are ranked in code instead (see ranked).
 */
const searchSql = (any: boolean, from: "all" | "recent") => {
  const words = any ? `replace(plainto_tsquery('simple', $1)::text, '&', '|')::tsquery` : `plainto_tsquery('simple', $1)`;
  // recent: the channel's newest RECENT rows, newest first by history_by_channel; all: every match, by the GIN index
  const rows =
    from === "recent"
      ? `(SELECT * FROM history_messages WHERE platform = $3 AND workspace_id = $4 AND channel_id = $5 ORDER BY id DESC LIMIT ${RECENT}) m`
      : "history_messages m";
  return `
  SELECT m.author_id AS "authorId", m.author_name AS "authorName", m.created_at AS time, m.kind, m.thread_id AS "threadId", m.link, m.text
  FROM ${rows}
  WHERE m.words @@ (to_tsquery('simple', $2) && ${words}) AND m.platform = $3 AND m.workspace_id = $4 AND m.channel_id = $5
    AND m.created_at >= $6 AND m.created_at < $7
    AND ($8::text[] IS NULL OR m.author_id = ANY($8::text[]))
  ORDER BY m.id DESC LIMIT ${CANDIDATES}`;
};
/**
 * The channel's newest rows looked at first: when CANDIDATES of them match (common words), they
 * are the newest matches, found without visiting the thousands of rows the GIN index names for a
 * common word; else (rarer words) the GIN index's matches, few.
 */
const RECENT = 500;
const SEARCH = {
  all: { recent: searchSql(false, "recent"), index: searchSql(false, "all") },
  any: { recent: searchSql(true, "recent"), index: searchSql(true, "all") },
};

/**
 * Deletes a set of turns' exchanges: their messages, their index rows, their steps' texts; and
 * empties the summaries that covered one of those messages (after the window start, up to
 * covered_to), to be rebuilt without them. Every part reads the rows as they were before.
 */
const FORGET_TURNS = (turns: string) => `
  WITH turns AS (${turns}),
  stale AS (
    UPDATE conversation_summaries s SET version = s.version + 1, summary = '', identifiers = '[]', covered_to = c.window_start,
      covers_from = NULL, covers_until = NULL, updated_at = NULL, failures = 0, retry_at = 0, claimed_until = 0
    FROM conversations c
    WHERE c.id = s.conversation_id AND (s.summary <> '' OR s.identifiers <> '[]')
      AND EXISTS (SELECT 1 FROM messages m JOIN turns t ON m.turn_id = t.id
                  WHERE m.conversation_id = s.conversation_id AND m.id <= s.covered_to AND m.id > c.window_start)
    RETURNING s.conversation_id),
  gone_index AS (DELETE FROM history_messages h USING turns t WHERE h.turn_id = t.id RETURNING 1),
  gone AS (DELETE FROM messages m USING turns t WHERE m.turn_id = t.id RETURNING m.turn_id),
  blanked AS (UPDATE turn_steps s SET input = '{}', output = NULL FROM turns t WHERE s.turn_id = t.id RETURNING 1)
  SELECT (SELECT COUNT(DISTINCT turn_id) FROM gone)::int AS exchanges, (SELECT COUNT(*) FROM gone_index)::int AS indexed,
    (SELECT COALESCE(array_agg(conversation_id), '{}') FROM stale)::text[] AS stale`;

/** The history index on PostgreSQL: a generated tsvector ('simple') with a GIN index, ranked by ts_rank. */
export class PostgresHistory implements HistoryStore {
  constructor(private readonly pool: pg.Pool) {}

  async add(entries: readonly HistoryEntry[], options: { keepIndexed?: boolean } = {}): Promise<void> {
    if (entries.length === 0) return;
    // The newest version of a message wins within one batch too (ON CONFLICT cannot touch a row twice).
    const byKey = new Map<string, HistoryEntry>();
    for (const entry of entries) byKey.set(JSON.stringify([entry.platform, entry.workspaceId, entry.channelId, entry.messageId]), entry);
    const rows = [...byKey.values()];
    const column = <T>(pick: (entry: HistoryEntry) => T) => rows.map(pick);
    await this.pool.query(options.keepIndexed ? `${INSERT} NOTHING` : UPSERT, [
      column((e) => e.platform),
      column((e) => e.workspaceId),
      column((e) => e.channelId),
      column((e) => e.threadId ?? ""),
      column((e) => e.messageId),
      column((e) => e.kind),
      column((e) => e.authorId),
      column((e) => e.authorName),
      column((e) => indexedText(e.text)),
      column((e) => e.link ?? null),
      column((e) => e.turnId ?? null),
      column((e) => e.time),
      column((e) => scopeToken(e)),
    ]);
  }

  async edit(where: DeletedMessages, text: string): Promise<number> {
    const { rowCount } = await this.pool.query(`UPDATE history_messages SET text = $5 WHERE ${PLACE}`, [...placeOf(where), indexedText(text)]);
    return rowCount ?? 0;
  }

  async search(query: HistoryQuery): Promise<HistoryHit[]> {
    const words = queryWords(query.text);
    if (words.length === 0) return [];
    const author = query.author?.trim() || null;
    // An author is the channel's people whose id or name it names: none, no match (at once).
    const authors = author === null ? null : await this.authorsOf(query, author);
    if (authors?.length === 0) return [];
    const run = async (any: boolean) => {
      const sql = any ? SEARCH.any : SEARCH.all;
      const recent = await read(sql.recent);
      return recent.length === CANDIDATES ? recent : read(sql.index);
    };
    const read = async (sql: string) =>
      (
        await this.pool.query<HitRow>(sql, [
          words.join(" ").replace(/[\p{P}\p{S}]+/gu, " "),
          scopeToken(query),
          query.platform,
          query.workspaceId,
          query.channelId,
          query.from ?? 0,
          query.to ?? Number.MAX_SAFE_INTEGER,
          authors,
        ])
      ).rows;
    let rows = await run(false);
    if (rows.length === 0 && words.length > 1) rows = await run(true);
    return ranked(rows, words)
      .slice(0, query.limit)
      .map((row) => hitOf(row, words));
  }

  /** The channel's authors a filter names, from the history_channel_authors index alone. */
  private async authorsOf(channel: ChannelRef, author: string): Promise<string[]> {
    const { rows } = await this.pool.query<{ author_id: string }>(
      `SELECT DISTINCT author_id FROM history_messages WHERE platform = $1 AND workspace_id = $2 AND channel_id = $3
         AND (author_id = $4 OR strpos(lower(author_name), lower($4)) > 0)`,
      [channel.platform, channel.workspaceId, channel.channelId, author],
    );
    return rows.map((row) => row.author_id);
  }

  async forgetMessages(deleted: DeletedMessages): Promise<Forgotten> {
    return inTransaction(this.pool, async (client) => {
      const turns = await forgetTurns(
        client,
        `SELECT DISTINCT turn_id AS id FROM history_messages WHERE ${PLACE} AND kind = 'question' AND turn_id IS NOT NULL`,
        placeOf(deleted),
      );
      const { rowCount } = await client.query(`DELETE FROM history_messages WHERE ${PLACE}`, placeOf(deleted));
      return { ...turns, indexed: turns.indexed + (rowCount ?? 0) };
    });
  }

  async forgetAuthor(workspace: WorkspaceRef, authorId: string): Promise<Forgotten> {
    return inTransaction(this.pool, async (client) => {
      const turns = await forgetTurns(
        client,
        `SELECT t.id FROM turns t JOIN conversations c ON c.id = t.conversation_id WHERE c.platform = $1 AND c.workspace_id = $2 AND t.user_id = $3`,
        [workspace.platform, workspace.workspaceId, authorId],
      );
      const { rowCount } = await client.query(`DELETE FROM history_messages WHERE platform = $1 AND workspace_id = $2 AND author_id = $3`, [
        workspace.platform,
        workspace.workspaceId,
        authorId,
      ]);
      // The person's messages of channels with history on (their questions' rows went with their turns).
      return { ...turns, indexed: rowCount ?? 0 };
    });
  }

  async dropChannel(channel: ChannelRef): Promise<number> {
    const { rowCount } = await this.pool.query(
      `DELETE FROM history_messages WHERE platform = $1 AND workspace_id = $2 AND channel_id = $3 AND kind = 'message'`,
      [channel.platform, channel.workspaceId, channel.channelId],
    );
    return rowCount ?? 0;
  }

  async prune(cutoff: number, limit: number): Promise<HistoryPruneCounts> {
    const indexed = await this.pool.query(
      `DELETE FROM history_messages WHERE id IN (SELECT id FROM history_messages WHERE created_at < $1 ORDER BY created_at LIMIT $2)`,
      [cutoff, limit],
    );
    const exchanges = await this.pool.query(`DELETE FROM messages WHERE id IN (SELECT id FROM messages WHERE created_at < $1 ORDER BY created_at LIMIT $2)`, [
      cutoff,
      limit,
    ]);
    return { indexed: indexed.rowCount ?? 0, exchanges: exchanges.rowCount ?? 0 };
  }
}

const placeOf = (where: DeletedMessages) => [where.platform, where.workspaceId, [...where.messageIds], where.channelId];

async function forgetTurns(db: Queryable, turns: string, params: unknown[]): Promise<Forgotten> {
  const { rows } = await db.query<{ exchanges: number; indexed: number; stale: string[] }>(FORGET_TURNS(turns), params);
  const row = rows[0];
  return { exchanges: row?.exchanges ?? 0, indexed: row?.indexed ?? 0, staleSummaries: (row?.stale ?? []).map(Number) };
}

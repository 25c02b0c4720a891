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
import type { ChannelRef } from "../channel-settings-store.js";
import type { WorkspaceRef } from "../types.js";
import type { SqliteConversations } from "./conversations.js";
import type { Db } from "./database.js";

/**
 * Matches ranked at most, the newest: FTS5 walks its lists in rowid order and stops there, so a
 * query of common words costs what a rare one does instead of every match in the store. The
 * results are the best-ranked of these (a channel's recent messages are what people ask about).
 */
const CANDIDATES = 64;
/**
 * Matches read at most, newest first, when a date range or an author narrows them after the match:
 * a narrow filter would otherwise walk every match of the channel (a person who never said the words).
 */
const FILTERED_SCAN = 1_000;

/** FTS5's query text: the channel's token, and the words (each a quoted phrase) all or any of them. */
const ftsQuery = (scope: string, words: string[], joiner: "AND" | "OR") =>
  `scope : "${scope}" AND text : (${words.map((word) => `"${word}"`).join(` ${joiner} `)})`;

/**
 * Empties the summaries (a new version, covering nothing after the window start) that covered a
 * message of turn `?`: what a summary covers is its messages after the window start up to covered_to.
 */
const STALE_SUMMARIES = `
  UPDATE conversation_summaries SET version = version + 1, summary = '', identifiers = '[]',
    covered_to = (SELECT window_start FROM conversations c WHERE c.id = conversation_summaries.conversation_id),
    covers_from = NULL, covers_until = NULL, updated_at = NULL, failures = 0, retry_at = 0, claimed_until = 0
  WHERE (summary <> '' OR identifiers <> '[]') AND conversation_id IN (
    SELECT m.conversation_id FROM messages m JOIN conversations c ON c.id = m.conversation_id
    WHERE m.turn_id = ? AND m.id <= conversation_summaries.covered_to AND m.id > c.window_start)`;

/**
 * The history index on SQLite: FTS5 over history_messages (external content, kept in step by
 * triggers), ranked by bm25 on the text alone. Forgetting an exchange deletes its messages rows
 * and drops this connection's cached windows (other connections see the file change).
 */
export class SqliteHistory implements HistoryStore {
  private readonly addAll: (entries: readonly HistoryEntry[], keepIndexed: boolean) => void;
  private readonly editText;
  private readonly select;
  private readonly selectFiltered;
  private readonly authorsOf;
  private readonly forgetMessagesNow: (deleted: DeletedMessages) => Forgotten;
  private readonly forgetAuthorNow: (workspace: WorkspaceRef, authorId: string) => Forgotten;
  private readonly drop;
  private readonly pruneIndexed;
  private readonly pruneExchanges;

  constructor(
    db: Db,
    private readonly conversations: SqliteConversations,
  ) {
    const insert = `INSERT INTO history_messages (platform, workspace_id, channel_id, thread_id, message_id, kind, author_id, author_name, text, link, turn_id, created_at, scope)
       VALUES (@platform, @workspaceId, @channelId, @threadId, @messageId, @kind, @authorId, @authorName, @text, @link, @turnId, @time, @scope)
       ON CONFLICT (platform, workspace_id, channel_id, message_id) DO`;
    const upsert = db.prepare(
      `${insert} UPDATE SET kind = excluded.kind, text = excluded.text, author_name = excluded.author_name,
         link = COALESCE(excluded.link, link), turn_id = COALESCE(excluded.turn_id, turn_id)`,
    );
    const insertNew = db.prepare(`${insert} NOTHING`);
    this.addAll = db.transaction((entries: readonly HistoryEntry[], keepIndexed: boolean) => {
      const write = keepIndexed ? insertNew : upsert;
      for (const entry of entries) {
        write.run({
          ...entry,
          threadId: entry.threadId ?? "",
          text: indexedText(entry.text),
          link: entry.link ?? null,
          turnId: entry.turnId ?? null,
          scope: scopeToken(entry),
        });
      }
    });
    const place = `platform = ? AND workspace_id = ? AND message_id = ? AND (channel_id = ? OR thread_id = ?)`;
    this.editText = db.prepare<[string, string, string, string, string, string]>(`UPDATE history_messages SET text = ? WHERE ${place}`);
    // No bm25() here: it reads every match of each word in the store for its statistics (a common
    // word's hundreds of thousands); the newest matches are ranked in code instead (see ranked).
    // CROSS JOIN keeps the matches first: else the planner walks the channel's rows by its index and probes them.
    // No ORDER BY outside: the matches are read newest first, one by one, so the scan stops at the
    // first CANDIDATES that pass the filters (a sort would read all FILTERED_SCAN of them first).
    const select = (scan: number) =>
      db.prepare<[string, string, string, string, number, number, string | null, string | null], HitRow>(
        `SELECT m.author_id AS authorId, m.author_name AS authorName, m.created_at AS time, m.kind, m.thread_id AS threadId, m.link, m.text
         FROM (SELECT rowid FROM history_fts WHERE history_fts MATCH ? ORDER BY rowid DESC LIMIT ${scan}) f
         CROSS JOIN history_messages m ON m.id = f.rowid
         WHERE m.platform = ? AND m.workspace_id = ? AND m.channel_id = ?
           AND m.created_at >= ? AND m.created_at < ?
           AND (? IS NULL OR m.author_id IN (SELECT value FROM json_each(?)))
         LIMIT ${CANDIDATES}`,
      );
    // The channel's authors the filter names, from the history_channel_authors index alone.
    this.authorsOf = db
      .prepare<[string, string, string, string, string], string>(
        `SELECT DISTINCT author_id FROM history_messages WHERE platform = ? AND workspace_id = ? AND channel_id = ?
           AND (author_id = ? OR instr(lower(author_name), lower(?)) > 0)`,
      )
      .pluck();
    this.select = select(CANDIDATES);
    this.selectFiltered = select(FILTERED_SCAN);
    const turnsOf = db
      .prepare<[string, string, string, string, string], string>(
        `SELECT turn_id FROM history_messages WHERE ${place} AND kind = 'question' AND turn_id IS NOT NULL`,
      )
      .pluck();
    const deleteRows = db.prepare<[string, string, string, string, string]>(`DELETE FROM history_messages WHERE ${place}`);
    const deleteTurnRows = db.prepare<[string]>(`DELETE FROM history_messages WHERE turn_id = ?`);
    const deleteExchange = db.prepare<[string]>(`DELETE FROM messages WHERE turn_id = ?`);
    // Run before the exchange's messages go: a summary that covered one of them is emptied, to be rebuilt without it.
    const emptySummaries = db.prepare<[string], number>(`${STALE_SUMMARIES} RETURNING conversation_id`).pluck();
    // The audit keeps that a turn ran, not what its tools were given or gave back.
    const blankSteps = db.prepare<[string]>(`UPDATE turn_steps SET input = '{}', output = NULL WHERE turn_id = ?`);
    /** Deletes a turn's exchange everywhere, and empties the summaries that covered it; counts into `forgotten`. */
    const forgetTurn = (turnId: string, forgotten: Forgotten) => {
      for (const id of emptySummaries.all(turnId)) if (!forgotten.staleSummaries.includes(id)) forgotten.staleSummaries.push(id);
      forgotten.indexed += deleteTurnRows.run(turnId).changes;
      if (deleteExchange.run(turnId).changes > 0) forgotten.exchanges++;
      blankSteps.run(turnId);
    };
    this.forgetMessagesNow = db.transaction((deleted: DeletedMessages) => {
      const forgotten: Forgotten = { indexed: 0, exchanges: 0, staleSummaries: [] };
      for (const messageId of deleted.messageIds) {
        const key = [deleted.platform, deleted.workspaceId, messageId, deleted.channelId, deleted.channelId] as const;
        for (const turnId of turnsOf.all(...key)) forgetTurn(turnId, forgotten);
        forgotten.indexed += deleteRows.run(...key).changes;
      }
      if (forgotten.exchanges > 0 || forgotten.staleSummaries.length > 0) this.conversations.cache.dropAll();
      return forgotten;
    });
    const authorTurns = db
      .prepare<[string, string, string], string>(
        `SELECT t.id FROM turns t JOIN conversations c ON c.id = t.conversation_id WHERE c.platform = ? AND c.workspace_id = ? AND t.user_id = ?`,
      )
      .pluck();
    const deleteAuthor = db.prepare<[string, string, string]>(`DELETE FROM history_messages WHERE platform = ? AND workspace_id = ? AND author_id = ?`);
    this.forgetAuthorNow = db.transaction((workspace: WorkspaceRef, authorId: string) => {
      const forgotten: Forgotten = { indexed: 0, exchanges: 0, staleSummaries: [] };
      for (const turnId of authorTurns.all(workspace.platform, workspace.workspaceId, authorId)) forgetTurn(turnId, forgotten);
      // The person's messages of channels with history on (their questions' rows went with their turns).
      forgotten.indexed = deleteAuthor.run(workspace.platform, workspace.workspaceId, authorId).changes;
      this.conversations.cache.dropAll();
      return forgotten;
    });
    this.drop = db.prepare<[string, string, string]>(
      `DELETE FROM history_messages WHERE platform = ? AND workspace_id = ? AND channel_id = ? AND kind = 'message'`,
    );
    this.pruneIndexed = db.prepare<[number, number]>(
      `DELETE FROM history_messages WHERE id IN (SELECT id FROM history_messages WHERE created_at < ? ORDER BY created_at LIMIT ?)`,
    );
    this.pruneExchanges = db.prepare<[number, number]>(
      `DELETE FROM messages WHERE id IN (SELECT id FROM messages WHERE created_at < ? ORDER BY created_at LIMIT ?)`,
    );
  }

  async add(entries: readonly HistoryEntry[], options: { keepIndexed?: boolean } = {}): Promise<void> {
    if (entries.length > 0) this.addAll(entries, options.keepIndexed === true);
  }

  async edit(where: DeletedMessages, text: string): Promise<number> {
    let changed = 0;
    for (const messageId of where.messageIds) {
      changed += this.editText.run(indexedText(text), where.platform, where.workspaceId, messageId, where.channelId, where.channelId).changes;
    }
    return changed;
  }

  async search(query: HistoryQuery): Promise<HistoryHit[]> {
    const words = queryWords(query.text);
    if (words.length === 0) return [];
    const scope = scopeToken(query);
    const author = query.author?.trim() || null;
    // An author is the channel's people whose id or name it names: none, no match (at once).
    const authors = author === null ? null : this.authorsOf.all(query.platform, query.workspaceId, query.channelId, author, author);
    if (authors?.length === 0) return [];
    const authorIds = authors ? JSON.stringify(authors) : null;
    const filtered = author !== null || query.from !== undefined || query.to !== undefined;
    const run = (joiner: "AND" | "OR") =>
      (filtered ? this.selectFiltered : this.select).all(
        ftsQuery(scope, words, joiner),
        query.platform,
        query.workspaceId,
        query.channelId,
        query.from ?? 0,
        query.to ?? Number.MAX_SAFE_INTEGER,
        authorIds,
        authorIds,
      );
    // Every word first; when no message has them all, messages with any of them.
    let rows = run("AND");
    if (rows.length === 0 && words.length > 1) rows = run("OR");
    // The best of the newest candidates, newest first among equals.
    return ranked(rows, words)
      .slice(0, query.limit)
      .map((row) => hitOf(row, words));
  }

  async forgetMessages(deleted: DeletedMessages): Promise<Forgotten> {
    return this.forgetMessagesNow(deleted);
  }

  async forgetAuthor(workspace: WorkspaceRef, authorId: string): Promise<Forgotten> {
    return this.forgetAuthorNow(workspace, authorId);
  }

  async dropChannel(channel: ChannelRef): Promise<number> {
    return this.drop.run(channel.platform, channel.workspaceId, channel.channelId).changes;
  }

  async prune(cutoff: number, limit: number): Promise<HistoryPruneCounts> {
    const indexed = this.pruneIndexed.run(cutoff, limit).changes;
    const exchanges = this.pruneExchanges.run(cutoff, limit).changes;
    if (exchanges > 0) this.conversations.cache.dropAll();
    return { indexed, exchanges };
  }
}

import { newTurnId } from "../turn-ids.js";
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
import { addToRollup, TURNS_WITH_CONVERSATIONS } from "../usage-rollup-sql.js";
import type { Conversation } from "../types.js";
import type { Db } from "./database.js";
import type { WindowCache } from "./window-cache.js";

/** The user id a summary call's usage row carries: no person asked for it. */
const SUMMARY_USER = "";

/** Conversation summaries in SQLite: every write is one conditional UPDATE on the versioned row. */
export class SqliteSummaries implements SummaryStore {
  private readonly ensure;
  private readonly select;
  private readonly selectDropped;
  private readonly claimRow;
  private readonly saveRow;
  private readonly failRow;
  private readonly noteRow;
  private readonly resetRow;
  private readonly saveTx: (conversationId: number, version: number, update: SummaryUpdate, usage: SummaryUsage) => boolean;
  private readonly failTx: (conversationId: number, version: number, retryAt: number, usage: SummaryUsage) => boolean;
  private readonly claimTx: (conversationId: number, version: number, until: number, now: number) => boolean;

  /** `windows`: the conversations' cached windows, which answer most reads of what left a window. */
  constructor(
    db: Db,
    private readonly windows: WindowCache,
  ) {
    this.ensure = db.prepare<[number]>(`INSERT INTO conversation_summaries (conversation_id) VALUES (?) ON CONFLICT (conversation_id) DO NOTHING`);
    this.select = db.prepare<[number], SummaryRow>(`SELECT * FROM conversation_summaries WHERE conversation_id = ?`);
    // The window is the newest `keep` messages after the window start; what is older and not covered yet left it.
    this.selectDropped = db.prepare<[number, number, number, number, number, number], DroppedMessage>(
      `SELECT id, role, author, text, created_at AS createdAt, source_id AS sourceId FROM messages
       WHERE conversation_id = ? AND id > ?
         AND id < COALESCE((SELECT MIN(id) FROM (SELECT id FROM messages WHERE conversation_id = ? AND id > ? ORDER BY id DESC LIMIT ?)), 0)
       ORDER BY id LIMIT ?`,
    );
    this.claimRow = db.prepare<[number, number, number, number]>(
      `UPDATE conversation_summaries SET claimed_until = ? WHERE conversation_id = ? AND version = ? AND claimed_until <= ?`,
    );
    this.saveRow = db.prepare(
      `UPDATE conversation_summaries SET version = version + 1, summary = @summary, identifiers = @identifiers, covered_to = @coveredTo,
         covers_from = COALESCE(covers_from, @coversFrom), covers_until = @coversUntil, updated_at = @updatedAt,
         failures = 0, retry_at = 0, claimed_until = 0
       WHERE conversation_id = @id AND version = @version`,
    );
    this.failRow = db.prepare<[number, number, number]>(
      `UPDATE conversation_summaries SET version = version + 1, failures = failures + 1, retry_at = ?, claimed_until = 0
       WHERE conversation_id = ? AND version = ?`,
    );
    this.noteRow = db.prepare<[number]>(`UPDATE conversation_summaries SET noted = 1 WHERE conversation_id = ? AND noted = 0`);
    this.resetRow = db.prepare<[number, number]>(
      `UPDATE conversation_summaries SET version = version + 1, summary = '', identifiers = '[]', covered_to = ?, covers_from = NULL,
         covers_until = NULL, updated_at = NULL, failures = 0, retry_at = 0, claimed_until = 0
       WHERE conversation_id = ?`,
    );
    const insertTurn = db.prepare(
      `INSERT INTO turns (id, conversation_id, user_id, status, outcome, started_at, ended_at, duration_ms, prompt_tokens, completion_tokens,
         total_tokens, instance, model, channel_id, kind)
       VALUES (@id, @conversationId, @user, @status, 'summary', @startedAt, @endedAt, @durationMs, @promptTokens, @completionTokens,
         @totalTokens, '', @model, @channelId, 'summary')`,
    );
    const addTokens = db.prepare<[string, string, string, number]>(
      `INSERT INTO token_usage_daily (platform, workspace_id, day, tokens) VALUES (?, ?, ?, ?)
       ON CONFLICT (platform, workspace_id, day) DO UPDATE SET tokens = tokens + excluded.tokens`,
    );
    // A summary call is no person's: it has no row by user.
    const rollUp = db.prepare<[string]>(addToRollup(TURNS_WITH_CONVERSATIONS, "t.id = ?").channels);
    const record = (call: SummaryUsage) => {
      const now = Date.now();
      const totalTokens = call.promptTokens + call.completionTokens;
      const id = newTurnId();
      insertTurn.run({
        id,
        conversationId: call.conversationId,
        user: SUMMARY_USER,
        status: call.ok ? "answered" : "failed",
        startedAt: now - call.durationMs,
        endedAt: now,
        durationMs: call.durationMs,
        promptTokens: call.promptTokens,
        completionTokens: call.completionTokens,
        totalTokens,
        model: call.model,
        channelId: call.channelId,
      });
      if (totalTokens > 0) addTokens.run(call.workspace.platform, call.workspace.workspaceId, utcDay(now), totalTokens);
      rollUp.run(id);
    };
    // The call's usage and the outcome it led to, in one transaction.
    this.saveTx = db.transaction((conversationId: number, version: number, update: SummaryUpdate, usage: SummaryUsage) => {
      record(usage);
      return this.saveNow(conversationId, version, update);
    });
    this.failTx = db.transaction((conversationId: number, version: number, retryAt: number, usage: SummaryUsage) => {
      record(usage);
      return this.failRow.run(retryAt, conversationId, version).changes === 1;
    });
    // A row at a version above 0 is there: only the first claim may have to create it.
    this.claimTx = db.transaction((conversationId: number, version: number, until: number, now: number) => {
      if (version === 0) this.ensure.run(conversationId);
      return this.claimRow.run(until, conversationId, version, now).changes === 1;
    });
  }

  async get(conversationId: number): Promise<SummaryState> {
    return this.windows.summary(conversationId, () => summaryFromRow(conversationId, this.select.get(conversationId)));
  }

  async dropped(conversation: Conversation, coveredTo: number, keepMessages: number, limit: number): Promise<DroppedMessage[]> {
    const { id, windowStart } = conversation;
    const cached = this.windows.dropped(id, windowStart, coveredTo, keepMessages, limit);
    if (cached) return cached;
    return this.selectDropped.all(id, Math.max(windowStart, coveredTo), id, windowStart, keepMessages, limit);
  }

  async claim(conversationId: number, version: number, now: number, leaseMs: number): Promise<boolean> {
    return this.written(conversationId, () => this.claimTx(conversationId, version, now + leaseMs, now));
  }

  async save(conversationId: number, version: number, update: SummaryUpdate, usage: SummaryUsage): Promise<boolean> {
    return this.written(conversationId, () => this.saveTx(conversationId, version, update, usage));
  }

  private saveNow(conversationId: number, version: number, update: SummaryUpdate): boolean {
    const result = this.saveRow.run({
      id: conversationId,
      version,
      summary: storable(update.summary),
      identifiers: storableJson(update.identifiers),
      coveredTo: update.coveredTo,
      coversFrom: update.coversFrom,
      coversUntil: update.coversUntil,
      updatedAt: update.updatedAt,
    });
    return result.changes === 1;
  }

  async failed(conversationId: number, version: number, retryAt: number, usage: SummaryUsage): Promise<boolean> {
    return this.written(conversationId, () => this.failTx(conversationId, version, retryAt, usage));
  }

  async markNoted(conversationId: number): Promise<boolean> {
    return this.written(conversationId, () => {
      this.ensure.run(conversationId);
      return this.noteRow.run(conversationId).changes === 1;
    });
  }

  async reset(conversationId: number, coveredTo: number): Promise<void> {
    this.written(conversationId, () => {
      this.ensure.run(conversationId);
      this.resetRow.run(coveredTo, conversationId);
    });
  }

  /** A write of the conversation's summary row: its cached copy is dropped however the write went. */
  private written<T>(conversationId: number, write: () => T): T {
    try {
      return write();
    } finally {
      this.windows.summaryChanged(conversationId);
    }
  }
}

import { LAST_TURN_IN_THREAD } from "../retention-sql.js";
import type { PruneCounts, PruneCutoffs, RetentionStore } from "../store.js";
import type { Db } from "./database.js";

/** Pruning rounds, each kind in a short transaction of its own (SQLite has one writer: a turn waits at most that long). */
export class SqliteRetention implements RetentionStore {
  private readonly threads: (cutoff: number, limit: number) => number;
  private readonly seeds;
  private readonly claims;
  private readonly spend;
  private readonly alerts;

  constructor(db: Db) {
    const oldThreads = db.prepare<[number, number], { id: number; lastTurn: number }>(
      `SELECT b.rowid AS id, MAX(${LAST_TURN_IN_THREAD}) AS lastTurn
       FROM bot_threads b WHERE b.created_at < ? ORDER BY b.created_at LIMIT ?`,
    );
    const forget = db.prepare<[number]>(`DELETE FROM bot_threads WHERE rowid = ?`);
    const renew = db.prepare<[number, number]>(`UPDATE bot_threads SET created_at = ? WHERE rowid = ?`);
    const threads = db.transaction((cutoff: number, limit: number) => {
      let pruned = 0;
      for (const { id, lastTurn } of oldThreads.all(cutoff, limit)) {
        if (lastTurn < cutoff) pruned += forget.run(id).changes;
        else renew.run(lastTurn, id);
      }
      return pruned;
    });
    // IMMEDIATE: it reads before it writes (see the turn log).
    this.threads = (cutoff, limit) => threads.immediate(cutoff, limit);
    this.seeds = db.prepare<[number, number]>(
      `DELETE FROM conversations WHERE seed_turn_id IS NOT NULL AND id IN (
         SELECT c.id FROM conversations c
         WHERE c.seed_turn_id IS NOT NULL AND c.created_at < ? AND NOT EXISTS (SELECT 1 FROM turns t WHERE t.conversation_id = c.id)
         ORDER BY c.created_at LIMIT ?)`,
    );
    this.claims = db.prepare<[number, number]>(
      `DELETE FROM processed_events WHERE rowid IN (SELECT rowid FROM processed_events WHERE received_at < ? ORDER BY received_at LIMIT ?)`,
    );
    this.spend = db.prepare<[number, number]>(
      `DELETE FROM budget_spend WHERE (budget_key, window_start) IN (
         SELECT budget_key, window_start FROM budget_spend WHERE window_start < ? ORDER BY window_start LIMIT ?)`,
    );
    this.alerts = db.prepare<[number, number]>(
      `DELETE FROM budget_alerts WHERE rowid IN (SELECT rowid FROM budget_alerts WHERE window_start < ? ORDER BY window_start LIMIT ?)`,
    );
  }

  async pruneRound(cutoffs: PruneCutoffs, limit: number): Promise<PruneCounts> {
    return {
      threads: this.threads(cutoffs.threads, limit),
      seeds: this.seeds.run(cutoffs.threads, limit).changes,
      claims: this.claims.run(cutoffs.claims, limit).changes,
      spend: this.spend.run(cutoffs.spend, limit).changes + this.alerts.run(cutoffs.spend, limit).changes,
    };
  }
}

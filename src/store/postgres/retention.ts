import type pg from "pg";
import { LAST_TURN_IN_THREAD } from "../retention-sql.js";
import type { PruneCounts, PruneCutoffs, RetentionStore } from "../store.js";

/** The oldest bot threads past the cutoff: those without a turn since go, the others are renewed to their last turn. */
const THREADS = `
  WITH old AS (
    SELECT b.platform, b.channel_id, b.thread_id, GREATEST(${LAST_TURN_IN_THREAD}) AS last_turn
    FROM bot_threads b WHERE b.created_at < $1 ORDER BY b.created_at LIMIT $2
  ), gone AS (
    DELETE FROM bot_threads b USING old o
    WHERE b.platform = o.platform AND b.channel_id = o.channel_id AND b.thread_id = o.thread_id AND o.last_turn < $1 AND b.created_at < $1
    RETURNING 1
  ), renewed AS (
    UPDATE bot_threads b SET created_at = o.last_turn FROM old o
    WHERE b.platform = o.platform AND b.channel_id = o.channel_id AND b.thread_id = o.thread_id AND o.last_turn >= $1
    RETURNING 1
  )
  SELECT (SELECT COUNT(*) FROM gone)::int AS pruned, (SELECT COUNT(*) FROM renewed)::int AS renewed`;

/**
 * Seeds of threads nobody followed up in. The outer condition is checked again on a row another
 * process is taking the seed of at the same moment: once it is taken, the row stays.
 */
const SEEDS = `
  DELETE FROM conversations WHERE seed_turn_id IS NOT NULL AND id IN (
    SELECT c.id FROM conversations c
    WHERE c.seed_turn_id IS NOT NULL AND c.created_at < $1 AND NOT EXISTS (SELECT 1 FROM turns t WHERE t.conversation_id = c.id)
    ORDER BY c.created_at LIMIT $2)`;

const CLAIMS = `
  DELETE FROM processed_events WHERE (platform, event_id) IN (
    SELECT platform, event_id FROM processed_events WHERE received_at < $1 ORDER BY received_at LIMIT $2)`;

const SPEND = `
  DELETE FROM budget_spend WHERE (budget_key, window_start) IN (
    SELECT budget_key, window_start FROM budget_spend WHERE window_start < $1 ORDER BY window_start LIMIT $2)`;

const ALERTS = `
  DELETE FROM budget_alerts WHERE (budget_key, window_start, level) IN (
    SELECT budget_key, window_start, level FROM budget_alerts WHERE window_start < $1 ORDER BY window_start LIMIT $2)`;

/** Pruning rounds, one statement (one short transaction) per kind. */
export class PostgresRetention implements RetentionStore {
  constructor(private readonly pool: pg.Pool) {}

  async pruneRound(cutoffs: PruneCutoffs, limit: number): Promise<PruneCounts> {
    const threads = await this.pool.query<{ pruned: number }>(THREADS, [cutoffs.threads, limit]);
    const seeds = await this.pool.query(SEEDS, [cutoffs.threads, limit]);
    const claims = await this.pool.query(CLAIMS, [cutoffs.claims, limit]);
    const spend = await this.pool.query(SPEND, [cutoffs.spend, limit]);
    const alerts = await this.pool.query(ALERTS, [cutoffs.spend, limit]);
    return {
      threads: threads.rows[0]?.pruned ?? 0,
      seeds: seeds.rowCount ?? 0,
      claims: claims.rowCount ?? 0,
      spend: (spend.rowCount ?? 0) + (alerts.rowCount ?? 0),
    };
  }
}

import type pg from "pg";
import type { InstanceStore, InstanceRun } from "../store.js";
import { INTERRUPTED_ERROR, RESTART_NOTICE_KEPT_MS, restartNoticeFromRow, UNSHOWN_ERROR, type RestartNotice } from "../turn-records.js";
import { addToRollup } from "../usage-rollup-sql.js";
import { CHANNELS } from "./listener.js";

/** The running turns a statement marked interrupted (`cut`, RETURNING the turns' columns) have ended: into the usage rollup. */
const CUT_ROLLUP = addToRollup("FROM cut t JOIN conversations c ON c.id = t.conversation_id", "true");
const ROLL_UP_CUT = `rolled_channels AS (
    ${CUT_ROLLUP.channels}
  ), rolled_users AS (
    ${CUT_ROLLUP.users}
  )`;

/**
 * Reaps, in one statement: runs whose lease ran out by the database's clock (or named dead), the
 * running turns of those runs and of runs no longer registered (marked interrupted), their
 * requests for approval still pending (expired, so a late press says so), and their places in line (released, with a notification per conversation so waiting turns go on). Rows
 * being renewed at that moment are skipped (SKIP LOCKED): a run renewing its lease is alive.
 */
const REAP = `
  WITH gone AS (
    DELETE FROM instances WHERE id IN (
      SELECT id FROM instances WHERE heartbeat_at < clock_ms() - $1 OR id = ANY($2::text[])
      FOR UPDATE SKIP LOCKED
    ) RETURNING id
  ), cut AS (
    UPDATE turns SET status = 'interrupted', outcome = 'interrupted', ended_at = $3, error = $4
    WHERE status = 'running'
      AND (instance IN (SELECT id FROM gone) OR NOT EXISTS (SELECT 1 FROM instances i WHERE i.id = turns.instance))
    RETURNING *
  ), ${ROLL_UP_CUT}, unshown AS (
    -- answered, but the place still held: the answer was being posted when its process died
    UPDATE turns t SET status = 'interrupted', outcome = 'interrupted', error = $6
    FROM turn_queue q
    WHERE q.turn_id = t.id AND t.status = 'answered'
      AND (q.instance IN (SELECT id FROM gone) OR NOT EXISTS (SELECT 1 FROM instances i WHERE i.id = q.instance))
    RETURNING t.id, t.conversation_id, t.notice_to
  ), unsaid AS (
    DELETE FROM messages WHERE turn_id IN (SELECT id FROM unshown)
  ), told AS (
    INSERT INTO restart_notices (turn_id, platform, target, created_at)
    SELECT x.id, c.platform, x.notice_to, $3
    FROM (SELECT id, conversation_id, notice_to FROM cut UNION ALL SELECT * FROM unshown) x JOIN conversations c ON c.id = x.conversation_id
    WHERE x.notice_to IS NOT NULL
    ON CONFLICT (turn_id) DO NOTHING
  ), released AS (
    DELETE FROM turn_queue q
    WHERE q.instance IN (SELECT id FROM gone) OR NOT EXISTS (SELECT 1 FROM instances i WHERE i.id = q.instance)
    RETURNING conversation_key
  ), expired AS (
    UPDATE approvals a SET status = 'expired', decided_at = $3
    WHERE a.status = 'pending' AND (a.instance IN (SELECT id FROM gone) OR NOT EXISTS (SELECT 1 FROM instances i WHERE i.id = a.instance))
  ), idle_rates AS (
    -- users idle for an hour: their rate counts say nothing any more
    DELETE FROM rate_windows WHERE updated_at < clock_ms() - 3600000
  ), notified AS (
    SELECT pg_notify($5, md5(key)) FROM (SELECT DISTINCT conversation_key AS key FROM released) keys
  )
  SELECT (SELECT count(*) FROM gone)::int AS runs, (SELECT count(*) FROM cut)::int + (SELECT count(*) FROM unshown)::int AS turns,
    (SELECT count(*) FROM notified)::int AS conversations`;

/** Notices of these platforms taken by this process (each by one process only), and the stale ones dropped. */
const TAKE_NOTICES = `
  WITH stale AS (
    DELETE FROM restart_notices WHERE created_at < $3
  ), taken AS (
    DELETE FROM restart_notices WHERE turn_id IN (
      SELECT turn_id FROM restart_notices WHERE platform = ANY($1::text[]) AND created_at >= $3
      ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED
    ) RETURNING platform, target
  )
  SELECT platform, target FROM taken`;

/** A clean stop: the run's running turns interrupted, its places released (and notified), its record removed. */
const LEAVE = `
  WITH cut AS (
    UPDATE turns SET status = 'interrupted', outcome = 'interrupted', ended_at = $2, error = $3 WHERE status = 'running' AND instance = $1
    RETURNING *
  ), ${ROLL_UP_CUT}, released AS (
    DELETE FROM turn_queue WHERE instance = $1 RETURNING conversation_key
  ), gone AS (
    DELETE FROM instances WHERE id = $1
  ), expired AS (
    UPDATE approvals SET status = 'expired', decided_at = $2 WHERE status = 'pending' AND instance = $1
  ), notified AS (
    SELECT pg_notify($4, md5(key)) FROM (SELECT DISTINCT conversation_key AS key FROM released) keys
  )
  SELECT (SELECT count(*) FROM notified)::int AS conversations`;

/** Process runs sharing the database, with their leases (see InstanceStore). Lease times are the database's clock. */
export class PostgresInstances implements InstanceStore {
  constructor(private readonly pool: pg.Pool) {}

  async register(run: InstanceRun): Promise<void> {
    await this.pool.query(
      `INSERT INTO instances (id, name, host, pid, started_at, heartbeat_at) VALUES ($1, $2, $3, $4, clock_ms(), clock_ms())
       ON CONFLICT (id) DO UPDATE SET heartbeat_at = clock_ms()`,
      [run.id, run.name, run.host, run.pid],
    );
  }

  async renew(run: InstanceRun): Promise<boolean> {
    const renewed = await this.pool.query(`UPDATE instances SET heartbeat_at = clock_ms() WHERE id = $1`, [run.id]);
    if (renewed.rowCount === 1) return true;
    await this.register(run);
    return false;
  }

  async othersOnHost(run: InstanceRun): Promise<{ id: string; pid: number }[]> {
    const { rows } = await this.pool.query<{ id: string; pid: number }>(`SELECT id, pid FROM instances WHERE host = $1 AND id <> $2`, [run.host, run.id]);
    return rows;
  }

  async reap(options: { leaseMs: number; dead?: string[] }): Promise<{ runs: number; turns: number }> {
    const { rows } = await this.pool.query<{ runs: number; turns: number }>(REAP, [
      options.leaseMs,
      options.dead ?? [],
      Date.now(),
      INTERRUPTED_ERROR,
      CHANNELS.queue,
      UNSHOWN_ERROR,
    ]);
    return { runs: rows[0]!.runs, turns: rows[0]!.turns };
  }

  async takeRestartNotices(platforms: readonly string[], limit: number): Promise<RestartNotice[]> {
    if (platforms.length === 0) return [];
    const { rows } = await this.pool.query<{ platform: string; target: string }>(TAKE_NOTICES, [platforms, limit, Date.now() - RESTART_NOTICE_KEPT_MS]);
    return rows.flatMap((row) => restartNoticeFromRow(row) ?? []);
  }

  async leave(run: InstanceRun): Promise<void> {
    await this.pool.query(LEAVE, [run.id, Date.now(), INTERRUPTED_ERROR, CHANNELS.queue]);
  }
}

import { INTERRUPTED_ERROR, RESTART_NOTICE_KEPT_MS, restartNoticeFromRow, UNSHOWN_ERROR, type RestartNotice } from "../turn-records.js";
import type { InstanceStore, InstanceRun } from "../store.js";
import { addToRollup, TURNS_WITH_CONVERSATIONS } from "../usage-rollup-sql.js";
import type { Db } from "./database.js";
import type { WindowCache } from "./window-cache.js";

const RATES_KEPT_MS = 60 * 60 * 1000;

/** Process runs sharing the file, with their leases (see InstanceStore). */
export class SqliteInstances implements InstanceStore {
  private readonly insert;
  private readonly touch;
  private readonly onHost;
  private readonly remove;
  private readonly leaveRun: (id: string) => void;
  private readonly reapRuns: (leaseMs: number, dead: string[]) => { runs: number; turns: number };
  private readonly takeNotices: (platforms: string, limit: number) => { platform: string; target: string }[];

  /** `cache`: the memory windows this connection keeps, from which a reaped turn's exchange is dropped. */
  constructor(db: Db, cache: WindowCache) {
    this.insert = db.prepare<[string, string, string, number, number, number]>(
      `INSERT OR REPLACE INTO instances (id, name, host, pid, started_at, heartbeat_at) VALUES (?, ?, ?, ?, ?, ?)`,
    );
    this.touch = db.prepare<[number, string]>(`UPDATE instances SET heartbeat_at = ? WHERE id = ?`);
    this.onHost = db.prepare<[string, string], { id: string; pid: number }>(`SELECT id, pid FROM instances WHERE host = ? AND id <> ?`);
    this.remove = db.prepare<[string]>(`DELETE FROM instances WHERE id = ?`);
    const expire = db.prepare<[number]>(`DELETE FROM instances WHERE heartbeat_at < ?`);
    const interruptOrphans = db.prepare<[number]>(
      `UPDATE turns SET status = 'interrupted', outcome = 'interrupted', ended_at = ?, error = '${INTERRUPTED_ERROR}'
       WHERE status = 'running' AND instance NOT IN (SELECT id FROM instances)`,
    );
    // A running turn marked interrupted has ended: into the usage rollup with it, before the mark.
    const orphansRollup = addToRollup(TURNS_WITH_CONVERSATIONS, "t.status = 'running' AND t.instance NOT IN (SELECT id FROM instances)");
    const rollUpOrphans = [db.prepare(orphansRollup.channels), db.prepare(orphansRollup.users)];
    const releaseOrphans = db.prepare(`DELETE FROM turn_queue WHERE instance NOT IN (SELECT id FROM instances)`);
    // Answered, but the place still held: the answer was being posted when its process died.
    const unshownTurns = db
      .prepare<[], string>(
        `SELECT t.id FROM turn_queue q JOIN turns t ON t.id = q.turn_id WHERE q.instance NOT IN (SELECT id FROM instances) AND t.status = 'answered'`,
      )
      .pluck();
    // Its exchange is in its conversation and in a thread opened for it, if any.
    const saidIn = db.prepare<[string], number>(`SELECT DISTINCT conversation_id FROM messages WHERE turn_id = ?`).pluck();
    const unsay = db.prepare<[string]>(`DELETE FROM messages WHERE turn_id = ?`);
    const unshown = db.prepare<[string, string]>(`UPDATE turns SET status = 'interrupted', outcome = 'interrupted', error = ? WHERE id = ?`);
    const noticeRunning = db.prepare<[number]>(
      `INSERT OR IGNORE INTO restart_notices (turn_id, platform, target, created_at)
       SELECT t.id, c.platform, t.notice_to, ? FROM turns t JOIN conversations c ON c.id = t.conversation_id
       WHERE t.status = 'running' AND t.instance NOT IN (SELECT id FROM instances) AND t.notice_to IS NOT NULL`,
    );
    const noticeOne = db.prepare<[number, string]>(
      `INSERT OR IGNORE INTO restart_notices (turn_id, platform, target, created_at)
       SELECT t.id, c.platform, t.notice_to, ? FROM turns t JOIN conversations c ON c.id = t.conversation_id
       WHERE t.id = ? AND t.notice_to IS NOT NULL`,
    );
    // A press on a request whose process is gone finds it expired.
    const expireOrphanApprovals = db.prepare<[number]>(
      `UPDATE approvals SET status = 'expired', decided_at = ? WHERE status = 'pending' AND instance NOT IN (SELECT id FROM instances)`,
    );
    // Users idle for an hour: their rate counts say nothing any more.
    const pruneRates = db.prepare<[number]>(`DELETE FROM rate_windows WHERE updated_at < ?`);
    const reap = db.transaction((leaseMs: number, dead: string[]) => {
      const now = Date.now();
      let runs = expire.run(now - leaseMs).changes;
      for (const id of dead) runs += this.remove.run(id).changes;
      let turns = 0;
      for (const turnId of unshownTurns.all()) {
        for (const conversationId of saidIn.all(turnId)) cache.drop(conversationId);
        unsay.run(turnId);
        turns += unshown.run(UNSHOWN_ERROR, turnId).changes;
        noticeOne.run(now, turnId);
      }
      noticeRunning.run(now);
      for (const statement of rollUpOrphans) statement.run();
      turns += interruptOrphans.run(now).changes;
      releaseOrphans.run();
      expireOrphanApprovals.run(now);
      pruneRates.run(now - RATES_KEPT_MS);
      return { runs, turns };
    });
    this.reapRuns = (leaseMs, dead) => reap.immediate(leaseMs, dead);
    const interruptOwn = db.prepare<[number, string]>(
      `UPDATE turns SET status = 'interrupted', outcome = 'interrupted', ended_at = ?, error = '${INTERRUPTED_ERROR}'
       WHERE status = 'running' AND instance = ?`,
    );
    const ownRollup = addToRollup(TURNS_WITH_CONVERSATIONS, "t.status = 'running' AND t.instance = ?");
    const rollUpOwn = [db.prepare<[string]>(ownRollup.channels), db.prepare<[string]>(ownRollup.users)];
    const releaseOwn = db.prepare<[string]>(`DELETE FROM turn_queue WHERE instance = ?`);
    const expireOwnApprovals = db.prepare<[number, string]>(
      `UPDATE approvals SET status = 'expired', decided_at = ? WHERE status = 'pending' AND instance = ?`,
    );
    const dropStale = db.prepare<[number]>(`DELETE FROM restart_notices WHERE created_at < ?`);
    const take = db.prepare<[string, number, number], { platform: string; target: string }>(
      `DELETE FROM restart_notices WHERE turn_id IN (
         SELECT turn_id FROM restart_notices WHERE platform IN (SELECT value FROM json_each(?)) AND created_at >= ? ORDER BY created_at LIMIT ?
       ) RETURNING platform, target`,
    );
    const takeNotices = db.transaction((platforms: string, limit: number) => {
      const since = Date.now() - RESTART_NOTICE_KEPT_MS;
      dropStale.run(since);
      return take.all(platforms, since, limit);
    });
    // Looked for without the write lock first: nearly always there are none, and a write here would
    // wait out another process's write lock (busy_timeout) on the main thread at every lease renewal.
    const anyNotice = db.prepare(`SELECT 1 FROM restart_notices LIMIT 1`).pluck();
    this.takeNotices = (platforms, limit) => (anyNotice.get() === undefined ? [] : takeNotices.immediate(platforms, limit));
    this.leaveRun = db.transaction((id: string) => {
      for (const statement of rollUpOwn) statement.run(id);
      interruptOwn.run(Date.now(), id);
      releaseOwn.run(id);
      expireOwnApprovals.run(Date.now(), id);
      this.remove.run(id);
    });
  }

  async takeRestartNotices(platforms: readonly string[], limit: number): Promise<RestartNotice[]> {
    if (platforms.length === 0) return [];
    return this.takeNotices(JSON.stringify(platforms), limit).flatMap((row) => restartNoticeFromRow(row) ?? []);
  }

  async register(run: InstanceRun): Promise<void> {
    const now = Date.now();
    this.insert.run(run.id, run.name, run.host, run.pid, now, now);
  }

  async renew(run: InstanceRun): Promise<boolean> {
    if (this.touch.run(Date.now(), run.id).changes === 1) return true;
    await this.register(run);
    return false;
  }

  async othersOnHost(run: InstanceRun): Promise<{ id: string; pid: number }[]> {
    return this.onHost.all(run.host, run.id);
  }

  async reap(options: { leaseMs: number; dead?: string[] }): Promise<{ runs: number; turns: number }> {
    return this.reapRuns(options.leaseMs, options.dead ?? []);
  }

  async leave(run: InstanceRun): Promise<void> {
    this.leaveRun(run.id);
  }
}

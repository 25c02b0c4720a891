import { INTERRUPTED_ERROR } from "../turn-records.js";
import type { InstanceRegistry, InstanceRun } from "../store.js";
import type { Db } from "./database.js";

const RATES_KEPT_MS = 60 * 60 * 1000;

/** Process runs sharing the file, with their leases (see InstanceRegistry). */
export class SqliteInstances implements InstanceRegistry {
  private readonly insert;
  private readonly touch;
  private readonly onHost;
  private readonly remove;
  private readonly leaveRun: (id: string) => void;
  private readonly reapRuns: (leaseMs: number, dead: string[]) => { runs: number; turns: number };

  constructor(db: Db) {
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
    const releaseOrphans = db.prepare(`DELETE FROM turn_queue WHERE instance NOT IN (SELECT id FROM instances)`);
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
      const turns = interruptOrphans.run(now).changes;
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
    const releaseOwn = db.prepare<[string]>(`DELETE FROM turn_queue WHERE instance = ?`);
    const expireOwnApprovals = db.prepare<[number, string]>(
      `UPDATE approvals SET status = 'expired', decided_at = ? WHERE status = 'pending' AND instance = ?`,
    );
    this.leaveRun = db.transaction((id: string) => {
      interruptOwn.run(Date.now(), id);
      releaseOwn.run(id);
      expireOwnApprovals.run(Date.now(), id);
      this.remove.run(id);
    });
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

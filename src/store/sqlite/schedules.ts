import { KEPT_RUNS, type RunClaim, type RunEnd, type ScheduledRun, type ScheduledTask, type ScheduleStore } from "../schedule-store.js";
import { RUN_COLUMNS, runFromRow, statusAfterClaim, RUNNABLE, TASK_COLUMNS, taskFromRow, type RunRow, type TaskRow } from "../schedule-rows.js";
import type { WorkspaceRef } from "../types.js";
import type { Db } from "./database.js";

const plain = (name: string) => name;

/** Scheduled tasks and their runs; the run's primary key (task, due time) is the claim. */
export class SqliteSchedules implements ScheduleStore {
  constructor(private readonly db: Db) {}

  async create(task: Omit<ScheduledTask, "status" | "failures">): Promise<void> {
    this.db
      .prepare(
        `INSERT INTO scheduled_tasks (id, platform, workspace_id, channel_id, creator, when_text, cron, time_zone, task, status, next_due, failures, created_at)
         VALUES (@id, @platform, @workspaceId, @channelId, @creator, @whenText, @cron, @timeZone, @task, 'active', @nextDue, 0, @createdAt)`,
      )
      .run({ ...task, cron: task.cron ?? null, nextDue: task.nextDue ?? null });
  }

  async get(id: string): Promise<ScheduledTask | undefined> {
    const row = this.db.prepare<[string], TaskRow>(`SELECT ${TASK_COLUMNS(plain)} FROM scheduled_tasks WHERE id = ?`).get(id);
    return row && taskFromRow(row);
  }

  async list(workspace: WorkspaceRef): Promise<ScheduledTask[]> {
    return this.db
      .prepare<[string, string], TaskRow>(`SELECT ${TASK_COLUMNS(plain)} FROM scheduled_tasks WHERE platform = ? AND workspace_id = ? ORDER BY created_at, id`)
      .all(workspace.platform, workspace.workspaceId)
      .map(taskFromRow);
  }

  async count(workspace: WorkspaceRef): Promise<number> {
    return (
      this.db
        .prepare<[string, string], number>(`SELECT COUNT(*) FROM scheduled_tasks WHERE platform = ? AND workspace_id = ?`)
        .pluck()
        .get(workspace.platform, workspace.workspaceId) ?? 0
    );
  }

  async remove(id: string): Promise<boolean> {
    return this.db.prepare(`DELETE FROM scheduled_tasks WHERE id = ?`).run(id).changes === 1;
  }

  async setStatus(id: string, status: "active" | "paused", nextDue?: number): Promise<boolean> {
    const changes = this.db
      .prepare(`UPDATE scheduled_tasks SET status = ?, next_due = ?, failures = CASE WHEN ? = 'active' THEN 0 ELSE failures END WHERE id = ?`)
      .run(status, status === "active" ? (nextDue ?? null) : null, status, id).changes;
    return changes === 1;
  }

  async nextDueTime(): Promise<number | undefined> {
    return this.db.prepare<[], number | null>(`SELECT MIN(next_due) FROM scheduled_tasks WHERE ${RUNNABLE}`).pluck().get() ?? undefined;
  }

  async due(now: number, limit: number): Promise<ScheduledTask[]> {
    return this.db
      .prepare<[number, number], TaskRow>(
        `SELECT ${TASK_COLUMNS(plain)} FROM scheduled_tasks WHERE ${RUNNABLE} AND next_due <= ? ORDER BY next_due, id LIMIT ?`,
      )
      .all(now, limit)
      .map(taskFromRow);
  }

  async claim(claim: RunClaim): Promise<boolean> {
    const after = statusAfterClaim(claim.nextDue, claim.keepNextDue);
    return this.db
      .transaction(() => {
        const inserted = this.db
          .prepare(
            `INSERT OR IGNORE INTO scheduled_runs (task_id, due_at, status, instance, started_at, detail)
             SELECT id, ?, ?, ?, ?, ? FROM scheduled_tasks WHERE id = ?`,
          )
          .run(claim.dueAt, claim.status, claim.instance, claim.at, claim.detail ?? null, claim.taskId).changes;
        if (inserted !== 1) return false;
        if (after !== "keep") {
          this.db
            .prepare(`UPDATE scheduled_tasks SET next_due = ?, status = CASE WHEN status = 'active' THEN ? ELSE status END WHERE id = ? AND next_due = ?`)
            .run(claim.nextDue ?? null, after, claim.taskId, claim.dueAt);
        }
        return true;
      })
      .immediate();
  }

  async finish(taskId: string, dueAt: number, end: RunEnd): Promise<number> {
    return this.db
      .transaction(() => {
        this.db
          .prepare(`UPDATE scheduled_runs SET status = ?, finished_at = ?, tokens = ?, link = ?, detail = ? WHERE task_id = ? AND due_at = ?`)
          .run(end.status, end.at, end.tokens, end.link ?? null, end.detail ?? null, taskId, dueAt);
        this.db.prepare(`UPDATE scheduled_tasks SET failures = CASE WHEN ? = 'failed' THEN failures + 1 ELSE 0 END WHERE id = ?`).run(end.status, taskId);
        this.db
          .prepare(
            `DELETE FROM scheduled_runs WHERE task_id = ? AND status <> 'running' AND due_at < (
               SELECT due_at FROM scheduled_runs WHERE task_id = ? ORDER BY due_at DESC LIMIT 1 OFFSET ?)`,
          )
          .run(taskId, taskId, KEPT_RUNS - 1);
        return this.db.prepare<[string], number>(`SELECT failures FROM scheduled_tasks WHERE id = ?`).pluck().get(taskId) ?? 0;
      })
      .immediate();
  }

  async history(taskId: string, limit: number): Promise<ScheduledRun[]> {
    return this.db
      .prepare<[string, number], RunRow>(`SELECT ${RUN_COLUMNS(plain)} FROM scheduled_runs WHERE task_id = ? ORDER BY started_at DESC, due_at DESC LIMIT ?`)
      .all(taskId, limit)
      .map(runFromRow);
  }

  async interruptOrphans(at: number): Promise<number> {
    return this.db
      .prepare(
        `UPDATE scheduled_runs SET status = 'interrupted', finished_at = ?, detail = 'the process running it stopped'
         WHERE status = 'running' AND instance NOT IN (SELECT id FROM instances)`,
      )
      .run(at).changes;
  }
}

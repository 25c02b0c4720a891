import type pg from "pg";
import { KEPT_RUNS, type RunClaim, type RunEnd, type ScheduledRun, type ScheduledTask, type ScheduleStore } from "../schedule-store.js";
import { RUN_COLUMNS, runFromRow, statusAfterClaim, RUNNABLE, TASK_COLUMNS, taskFromRow, type RunRow, type TaskRow } from "../schedule-rows.js";
import type { WorkspaceRef } from "../types.js";

const quoted = (name: string) => `"${name}"`;

/** Scheduled tasks and their runs; the run's primary key (task, due time) is the claim. */
export class PostgresSchedules implements ScheduleStore {
  constructor(private readonly pool: pg.Pool) {}

  async create(task: Omit<ScheduledTask, "status" | "failures">): Promise<void> {
    await this.pool.query(
      `INSERT INTO scheduled_tasks (id, platform, workspace_id, channel_id, creator, when_text, cron, time_zone, task, status, next_due, failures, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'active', $10, 0, $11)`,
      [
        task.id,
        task.platform,
        task.workspaceId,
        task.channelId,
        task.creator,
        task.whenText,
        task.cron ?? null,
        task.timeZone,
        task.task,
        task.nextDue ?? null,
        task.createdAt,
      ],
    );
  }

  async get(id: string): Promise<ScheduledTask | undefined> {
    const { rows } = await this.pool.query<TaskRow>(`SELECT ${TASK_COLUMNS(quoted)} FROM scheduled_tasks WHERE id = $1`, [id]);
    return rows[0] && taskFromRow(rows[0]);
  }

  async list(workspace: WorkspaceRef): Promise<ScheduledTask[]> {
    const { rows } = await this.pool.query<TaskRow>(
      `SELECT ${TASK_COLUMNS(quoted)} FROM scheduled_tasks WHERE platform = $1 AND workspace_id = $2 ORDER BY created_at, id`,
      [workspace.platform, workspace.workspaceId],
    );
    return rows.map(taskFromRow);
  }

  async count(workspace: WorkspaceRef): Promise<number> {
    const { rows } = await this.pool.query<{ count: number }>(`SELECT COUNT(*)::int AS count FROM scheduled_tasks WHERE platform = $1 AND workspace_id = $2`, [
      workspace.platform,
      workspace.workspaceId,
    ]);
    return rows[0]?.count ?? 0;
  }

  async remove(id: string): Promise<boolean> {
    const { rowCount } = await this.pool.query(`DELETE FROM scheduled_tasks WHERE id = $1`, [id]);
    return rowCount === 1;
  }

  async setStatus(id: string, status: "active" | "paused", nextDue?: number): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE scheduled_tasks SET status = $1::text, next_due = $2, failures = CASE WHEN $1::text = 'active' THEN 0 ELSE failures END WHERE id = $3`,
      [status, status === "active" ? (nextDue ?? null) : null, id],
    );
    return rowCount === 1;
  }

  async nextDueTime(): Promise<number | undefined> {
    const { rows } = await this.pool.query<{ next: number | null }>(`SELECT MIN(next_due) AS next FROM scheduled_tasks WHERE ${RUNNABLE}`);
    return rows[0]?.next ?? undefined;
  }

  async due(now: number, limit: number): Promise<ScheduledTask[]> {
    const { rows } = await this.pool.query<TaskRow>(
      `SELECT ${TASK_COLUMNS(quoted)} FROM scheduled_tasks WHERE ${RUNNABLE} AND next_due <= $1 ORDER BY next_due, id LIMIT $2`,
      [now, limit],
    );
    return rows.map(taskFromRow);
  }

  async claim(claim: RunClaim): Promise<boolean> {
    const after = statusAfterClaim(claim.nextDue, claim.keepNextDue);
    // One statement: the insert is the claim; the task moves on only when the insert won.
    const { rows } = await this.pool.query<{ won: boolean }>(
      `WITH claimed AS (
         INSERT INTO scheduled_runs (task_id, due_at, status, instance, started_at, detail)
         SELECT id, $2, $3, $4, $5, $6 FROM scheduled_tasks WHERE id = $1
         ON CONFLICT DO NOTHING RETURNING task_id
       ), moved AS (
         UPDATE scheduled_tasks SET next_due = $7, status = CASE WHEN status = 'active' THEN $8::text ELSE status END
         WHERE id = $1 AND next_due = $2 AND $8::text <> 'keep' AND EXISTS (SELECT 1 FROM claimed)
       )
       SELECT EXISTS (SELECT 1 FROM claimed) AS won`,
      [claim.taskId, claim.dueAt, claim.status, claim.instance, claim.at, claim.detail ?? null, claim.nextDue ?? null, after],
    );
    return rows[0]?.won === true;
  }

  async finish(taskId: string, dueAt: number, end: RunEnd): Promise<number> {
    const { rows } = await this.pool.query<{ failures: number }>(
      `WITH ended AS (
         UPDATE scheduled_runs SET status = $3, finished_at = $4, tokens = $5, link = $6, detail = $7 WHERE task_id = $1 AND due_at = $2
       )
       UPDATE scheduled_tasks SET failures = CASE WHEN $3::text = 'failed' THEN failures + 1 ELSE 0 END WHERE id = $1 RETURNING failures`,
      [taskId, dueAt, end.status, end.at, end.tokens, end.link ?? null, end.detail ?? null],
    );
    await this.pool.query(
      `DELETE FROM scheduled_runs WHERE task_id = $1 AND status <> 'running' AND due_at < (
         SELECT due_at FROM scheduled_runs WHERE task_id = $1 ORDER BY due_at DESC LIMIT 1 OFFSET $2)`,
      [taskId, KEPT_RUNS - 1],
    );
    return rows[0]?.failures ?? 0;
  }

  async history(taskId: string, limit: number): Promise<ScheduledRun[]> {
    const { rows } = await this.pool.query<RunRow>(
      `SELECT ${RUN_COLUMNS(quoted)} FROM scheduled_runs WHERE task_id = $1 ORDER BY started_at DESC, due_at DESC LIMIT $2`,
      [taskId, limit],
    );
    return rows.map(runFromRow);
  }

  async interruptOrphans(at: number): Promise<number> {
    const { rowCount } = await this.pool.query(
      `UPDATE scheduled_runs SET status = 'interrupted', finished_at = $1, detail = 'the process running it stopped'
       WHERE status = 'running' AND NOT EXISTS (SELECT 1 FROM instances WHERE instances.id = scheduled_runs.instance)`,
      [at],
    );
    return rowCount ?? 0;
  }
}

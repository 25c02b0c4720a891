import type { RunStatus, ScheduledRun, ScheduledTask, ScheduleStatus } from "./schedule-store.js";

/** The columns both engines select, named as the rows below (PostgreSQL quotes the camel-case names). */
export const TASK_COLUMNS = (quote: (name: string) => string) =>
  `id, platform, workspace_id AS ${quote("workspaceId")}, channel_id AS ${quote("channelId")}, creator, when_text AS ${quote("whenText")}, cron,
   time_zone AS ${quote("timeZone")}, task, status, next_due AS ${quote("nextDue")}, failures, created_at AS ${quote("createdAt")}`;

/**
 * Tasks that may run: active, in a workspace the app has not left. An uninstalled workspace's
 * tasks stop at once, in every process, and go on if it is reinstalled before its purge.
 */
export const RUNNABLE = `status = 'active' AND NOT EXISTS (SELECT 1 FROM workspace_departures d
  WHERE d.platform = scheduled_tasks.platform AND d.workspace_id = scheduled_tasks.workspace_id)`;

export const RUN_COLUMNS = (quote: (name: string) => string) =>
  `task_id AS ${quote("taskId")}, due_at AS ${quote("dueAt")}, status, instance, started_at AS ${quote("startedAt")},
   finished_at AS ${quote("finishedAt")}, tokens, link, detail`;

export interface TaskRow extends Omit<ScheduledTask, "cron" | "nextDue" | "status"> {
  cron: string | null;
  nextDue: number | null;
  status: string;
}

export interface RunRow extends Omit<ScheduledRun, "finishedAt" | "link" | "detail" | "status"> {
  finishedAt: number | null;
  link: string | null;
  detail: string | null;
  status: string;
}

export const taskFromRow = ({ cron, nextDue, status, ...rest }: TaskRow): ScheduledTask => ({
  ...rest,
  status: status as ScheduleStatus,
  ...(cron === null ? {} : { cron }),
  ...(nextDue === null ? {} : { nextDue }),
});

export const runFromRow = ({ finishedAt, link, detail, status, ...rest }: RunRow): ScheduledRun => ({
  ...rest,
  status: status as RunStatus,
  ...(finishedAt === null ? {} : { finishedAt }),
  ...(link === null ? {} : { link }),
  ...(detail === null ? {} : { detail }),
});

/** The status a task takes when a due time is claimed: a one-off task with no next time is done. */
export const statusAfterClaim = (nextDue: number | undefined, keepNextDue: boolean | undefined): "keep" | "active" | "done" =>
  keepNextDue ? "keep" : nextDue === undefined ? "done" : "active";

import type { WorkspaceRef } from "./types.js";

/** active: runs at next_due; paused: kept, runs no more until resumed; done: a one-off task that ran. */
export type ScheduleStatus = "active" | "paused" | "done";

/** running: claimed, not finished (or its process died: then interrupted); missed: due while no process was up, past the catch-up window. */
export type RunStatus = "running" | "ok" | "failed" | "interrupted" | "missed" | "paused";

export interface ScheduledTask {
  id: string;
  platform: string;
  workspaceId: string;
  channelId: string;
  /** The user who created it: every run's actor. */
  creator: string;
  /** What the creator typed as WHEN. */
  whenText: string;
  /** The 5-field cron of a recurring task; absent for a one-off task. */
  cron?: string;
  timeZone: string;
  task: string;
  status: ScheduleStatus;
  /** The next due time, ms since the epoch; absent when paused or done. */
  nextDue?: number;
  /** Failed runs in a row (reset by a run that succeeds). */
  failures: number;
  createdAt: number;
}

export interface ScheduledRun {
  taskId: string;
  dueAt: number;
  status: RunStatus;
  instance: string;
  startedAt: number;
  finishedAt?: number;
  tokens: number;
  /** Where the run's post is (a platform link), when it posted one. */
  link?: string;
  /** Why it failed, was paused or missed. */
  detail?: string;
}

export interface RunClaim {
  taskId: string;
  /** The due time claimed: the claim's key with the task. */
  dueAt: number;
  /** The task's next due time after this one (absent: none, a one-off task is then done). */
  nextDue?: number;
  /** The process run claiming it (see InstanceStore). */
  instance: string;
  /** "missed" records the due time without running it; "running" claims it to run now. */
  status: "running" | "missed";
  detail?: string;
  at: number;
  /** For a run asked for now: the task's next due time is left as it is. */
  keepNextDue?: boolean;
}

export interface RunEnd {
  status: "ok" | "failed" | "paused";
  tokens: number;
  link?: string;
  detail?: string;
  at: number;
}

/** A task's runs kept (the history shows 10): older ones are deleted as new ones end, so a frequent task's rows stay bounded. */
export const KEPT_RUNS = 100;

/** Scheduled tasks and their runs (issue 26). Every method may be called by several processes at once. */
export interface ScheduleStore {
  create(task: Omit<ScheduledTask, "status" | "failures">): Promise<void>;
  get(id: string): Promise<ScheduledTask | undefined>;
  /** The workspace's tasks, oldest first. */
  list(workspace: WorkspaceRef): Promise<ScheduledTask[]>;
  count(workspace: WorkspaceRef): Promise<number>;
  /** Deletes the task and its runs; false when there was none. */
  remove(id: string): Promise<boolean>;
  /** Pauses (next due cleared) or resumes (at `nextDue`) a task; false when there was none. */
  setStatus(id: string, status: "active" | "paused", nextDue?: number): Promise<boolean>;
  /** The earliest due time of any active task (for the scheduler's one timer). */
  nextDueTime(): Promise<number | undefined>;
  /** Active tasks due at or before `now`, earliest first, at most `limit`. */
  due(now: number, limit: number): Promise<ScheduledTask[]>;
  /**
   * Claims one due time of a task: a unique insert keyed by (task, due time), so of several
   * processes one wins. In the same transaction the task moves on to its next due time (only if
   * it still was at this one). False for every caller but the first.
   */
  claim(claim: RunClaim): Promise<boolean>;
  /** Records a claimed run's end and counts failures in a row; returns that count. Runs past the newest KEPT_RUNS of the task are deleted. */
  finish(taskId: string, dueAt: number, end: RunEnd): Promise<number>;
  /** The task's newest runs, newest first. */
  history(taskId: string, limit: number): Promise<ScheduledRun[]>;
  /** Runs left running by process runs no longer registered are marked interrupted; returns how many. */
  interruptOrphans(at: number): Promise<number>;
}

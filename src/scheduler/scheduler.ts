import type { Logger } from "../log.js";
import { scheduleOf, type ScheduleTrigger } from "../runner/commands/schedule-commands.js";
import type { ScheduledTask, ScheduleStore } from "../store/schedule-store.js";
import type { RunOutcome } from "./run-poster.js";
import { nextTimes } from "./when.js";

export interface SchedulerOptions {
  schedules: ScheduleStore;
  /** This process run's id (see InstanceStore): its claims carry it. */
  instance: string;
  logger: Logger;
  /** SCHEDULE_CATCHUP_MS: a due time older than this when a process sees it is recorded as missed, not run. */
  catchUpMs: number;
  /** How often the store is read again at most, for tasks other processes added or changed (default a minute). */
  rereadMs?: number;
  /** Runs a claimed due time as a turn; never rejects. */
  run(task: ScheduledTask, dueAt: number): Promise<RunOutcome>;
  /** Tells a task's creator something (the task was paused). */
  tell(task: ScheduledTask, markdown: string): Promise<void>;
  /** Whether this process runs the platform's tasks (its adapter is connected here). */
  serves(platform: string): boolean;
  now?: () => number;
}

/** Failed runs in a row that pause a task. */
const FAILURES_TO_PAUSE = 3;
/** Due tasks read per wake. */
const DUE_BATCH = 50;
const DEFAULT_REREAD_MS = 60_000;

/**
 * Runs scheduled tasks at their times, in every process alike. One timer waits for the earliest
 * due time (never longer than `rereadMs`, so tasks other processes add are seen within it); at a
 * due time every process may try, and the store's claim keyed by (task, due time) lets one run it.
 * A due time older than the catch-up window (no process was up) is recorded as missed; a task
 * that missed several runs runs once, never a burst.
 */
export class Scheduler implements ScheduleTrigger {
  private timer: NodeJS.Timeout | undefined;
  private waking: Promise<void> | undefined;
  private again = false;
  private stopped = true;
  private readonly runs = new Set<Promise<void>>();
  private readonly now: () => number;

  constructor(private readonly options: SchedulerOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Marks runs of dead processes interrupted, catches up what is due, and arms the timer. */
  start(): void {
    this.stopped = false;
    this.changed();
  }

  /** Stops the timer and waits (bounded by the turns' own deadlines) for the runs in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.waking;
    await Promise.allSettled([...this.runs]);
  }

  changed(): void {
    if (this.stopped) return;
    if (this.waking) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.waking = this.wake().finally(() => {
      this.waking = undefined;
      if (this.again) {
        this.again = false;
        this.changed();
      }
    });
  }

  async runNow(task: ScheduledTask): Promise<string> {
    const dueAt = this.now();
    const won = await this.options.schedules.claim({
      taskId: task.id,
      dueAt,
      instance: this.options.instance,
      status: "running",
      at: dueAt,
      keepNextDue: true,
    });
    if (!won) return `\`${task.id}\` is already being run now.`;
    this.track(task, dueAt);
    return `Running \`${task.id}\` now; its post follows in this channel.`;
  }

  private async wake(): Promise<void> {
    const { schedules, logger } = this.options;
    try {
      await schedules.interruptOrphans(this.now());
      for (let round = 0; round < 10; round++) {
        const due = (await schedules.due(this.now(), DUE_BATCH)).filter((task) => this.options.serves(task.platform));
        if (due.length === 0) break;
        for (const task of due) await this.take(task);
      }
    } catch (error) {
      logger.warn({ err: error }, "could not read or claim scheduled tasks; trying again later");
    }
    await this.arm();
  }

  /** One due time of a task: recorded missed when too old, else claimed and run (the times in between skipped, no burst). */
  private async take(task: ScheduledTask): Promise<void> {
    const dueAt = task.nextDue;
    if (dueAt === undefined) return;
    const now = this.now();
    const schedule = scheduleOf(task);
    if (now - dueAt > this.options.catchUpMs) {
      // The next time kept is the first inside the catch-up window: one missed record per outage.
      const nextDue = nextTimes(schedule, task.timeZone, Math.max(dueAt, now - this.options.catchUpMs - 1), 1)[0];
      await this.options.schedules.claim({
        taskId: task.id,
        dueAt,
        nextDue,
        instance: this.options.instance,
        status: "missed",
        detail: "no process was up at that time",
        at: now,
      });
      return;
    }
    const nextDue = nextTimes(schedule, task.timeZone, now, 1)[0];
    const won = await this.options.schedules.claim({ taskId: task.id, dueAt, nextDue, instance: this.options.instance, status: "running", at: now });
    if (won) this.track(task, dueAt);
  }

  private track(task: ScheduledTask, dueAt: number): void {
    const run = this.execute(task, dueAt);
    this.runs.add(run);
    void run.finally(() => this.runs.delete(run));
  }

  private async execute(task: ScheduledTask, dueAt: number): Promise<void> {
    const { schedules, logger } = this.options;
    let outcome: RunOutcome;
    try {
      outcome = await this.options.run(task, dueAt);
    } catch (error) {
      logger.error({ err: error, task: task.id }, "a scheduled run failed");
      outcome = { status: "failed", tokens: 0, detail: "an error in the bot" };
    }
    try {
      const failures = await schedules.finish(task.id, dueAt, { ...outcome, at: this.now() });
      logger.info({ task: task.id, dueAt, status: outcome.status, tokens: outcome.tokens }, "scheduled run ended");
      const pause = outcome.status === "paused" ? outcome.detail : failures >= FAILURES_TO_PAUSE ? `it failed ${failures} times in a row` : undefined;
      if (pause) {
        await schedules.setStatus(task.id, "paused");
        await this.options
          .tell(task, `I paused your scheduled task \`${task.id}\`: ${pause}. \`/schedule resume ${task.id}\` lets it run again.`)
          .catch(() => {});
      }
    } catch (error) {
      logger.warn({ err: error, task: task.id }, "could not record a scheduled run's end");
    }
    this.changed();
  }

  private async arm(): Promise<void> {
    if (this.stopped) return;
    const reread = this.options.rereadMs ?? DEFAULT_REREAD_MS;
    let next: number | undefined;
    try {
      next = await this.options.schedules.nextDueTime();
    } catch {
      next = undefined;
    }
    // A due time already past is one this process does not serve (another platform's) or could not
    // claim: waiting for it again at once would spin, so it is looked at on the next re-read.
    const delay = next === undefined || next <= this.now() ? reread : Math.min(next - this.now(), reread);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.changed(), delay);
    this.timer.unref();
  }
}

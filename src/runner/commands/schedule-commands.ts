import type { ScheduleCommand } from "../../contract/commands.js";
import { randomBytes } from "node:crypto";
import type { ScheduledRun, ScheduledTask, ScheduleStore } from "../../store/schedule-store.js";
import type { WorkspaceSettingsStore } from "../../store/store.js";
import { formatTime, isTimeZone, nextTimes, parseWhen, tooFrequent, type Schedule } from "../../scheduler/when.js";
import { workspaceTimeZone } from "../time-zone.js";
import type { ConversationRef } from "../../store/types.js";
import type { Role } from "../../contract/inbound.js";

type CommandPlace = ConversationRef;
interface CommandActor {
  userId: string;
  role: Role;
  isDm?: boolean;
}
interface CommandResult {
  ok: boolean;
  text: string;
}

/** What the scheduler offers the commands: a nudge when tasks change, and a run now. */
export interface ScheduleTrigger {
  /** Tasks changed: the next due time may be another. */
  changed(): void;
  /** Runs the task now, once; resolves once the run was claimed (not finished), with what to tell the asker. */
  runNow(task: ScheduledTask): Promise<string>;
}

export interface ScheduleLimits {
  /** SCHEDULE_TIMEZONE. */
  defaultTimeZone: string;
  maxPerWorkspace: number;
  minIntervalMinutes: number;
}

export interface NewTask {
  place: CommandPlace;
  creator: string;
  whenText: string;
  task: string;
  /** Only one-off times (create_reminder). */
  onceOnly?: boolean;
}

const HISTORY_RUNS = 10;
const MAX_TASK_CHARS = 1_500;
const preview = (text: string, chars = 80) => (text.length > chars ? `${text.slice(0, chars)}…` : text).replace(/\s+/g, " ");

/** Scheduled tasks' commands (issue 26), and the one way tasks are created (the reminder tool too). */
export class ScheduleCommands {
  constructor(
    private readonly store: { schedules: ScheduleStore; workspaceSettings: WorkspaceSettingsStore },
    private readonly limits: ScheduleLimits,
    private readonly trigger: ScheduleTrigger | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  async execute(command: ScheduleCommand, where: CommandPlace, actor: CommandActor): Promise<CommandResult> {
    if (actor.isDm) return { ok: false, text: "Scheduled tasks belong to a channel: use these commands in one." };
    const settings = await this.store.workspaceSettings.get(where);
    switch (command.kind) {
      case "settings_timezone":
        return this.setTimeZone(command.zone, where, actor);
      case "settings_schedules":
        await this.store.workspaceSettings.set(where, "scheduleMembers", command.members ? true : undefined, actor.userId);
        return {
          ok: true,
          text: command.members
            ? "Members may now create scheduled tasks in channels they can post in, and manage their own."
            : "Only admins may create scheduled tasks now.",
        };
      case "schedule_add": {
        if (actor.role !== "admin" && !settings.scheduleMembers) return this.adminsOnly();
        const created = await this.create({ place: where, creator: actor.userId, whenText: command.when, task: command.task });
        return "error" in created ? { ok: false, text: created.error } : { ok: true, text: created.text };
      }
      case "schedule_list":
        return { ok: true, text: await this.describeList(where) };
      case "schedule_task":
        return this.manage(command, where, actor, settings.scheduleMembers === true);
    }
  }

  /** Creates a task for `creator` in the place: checks WHEN, the limits; the reply names its id and next three times. */
  async create(request: NewTask): Promise<{ task: ScheduledTask; text: string } | { error: string }> {
    const { place } = request;
    const task = request.task.trim();
    if (task === "") return { error: "Say what the task should do: `/schedule add WHEN | TASK`." };
    if (task.length > MAX_TASK_CHARS) return { error: `The task is too long (${task.length} characters; at most ${MAX_TASK_CHARS}).` };
    const timeZone = await workspaceTimeZone(this.store.workspaceSettings, place, this.limits.defaultTimeZone);
    const now = this.now();
    const parsed = parseWhen(request.whenText, { now, timeZone });
    if ("error" in parsed) return { error: parsed.error };
    const { schedule } = parsed;
    if (request.onceOnly && schedule.kind !== "once")
      return { error: 'A reminder is for one time ("in 2 hours", "at 2026-12-24 18:00"); recurring tasks are made with /schedule add.' };
    if (schedule.kind === "recurring") {
      const reason = tooFrequent(schedule.cron, timeZone, this.limits.minIntervalMinutes, now);
      if (reason) return { error: reason };
    }
    const workspace = { platform: place.platform, workspaceId: place.workspaceId };
    if ((await this.store.schedules.count(workspace)) >= this.limits.maxPerWorkspace) {
      return { error: `This workspace already has ${this.limits.maxPerWorkspace} scheduled tasks (SCHEDULE_MAX_PER_WORKSPACE); remove one first.` };
    }
    const upcoming = nextTimes(schedule, timeZone, now, 3);
    const created: ScheduledTask = {
      id: randomBytes(4).toString("hex"),
      platform: place.platform,
      workspaceId: place.workspaceId,
      channelId: place.channelId,
      creator: request.creator,
      whenText: request.whenText.trim(),
      ...(schedule.kind === "recurring" ? { cron: schedule.cron } : {}),
      timeZone,
      task,
      status: "active",
      nextDue: upcoming[0],
      failures: 0,
      createdAt: now,
    };
    await this.store.schedules.create(created);
    this.trigger?.changed();
    const times = upcoming.map((time) => formatTime(time, timeZone)).join("; ");
    const kind = schedule.kind === "recurring" ? `\`${schedule.cron}\`` : "once";
    return { task: created, text: `Scheduled \`${created.id}\` (${kind}, ${timeZone}): ${preview(task)}\nNext: ${times}.` };
  }

  private adminsOnly(): CommandResult {
    return { ok: false, text: "Only admins can create scheduled tasks here (an admin can let members with `/settings schedules members`)." };
  }

  private async setTimeZone(zone: string | null, where: CommandPlace, actor: CommandActor): Promise<CommandResult> {
    if (zone === null) {
      await this.store.workspaceSettings.set(where, "timeZone", undefined, actor.userId);
      return { ok: true, text: `Scheduled times here are in the default time zone again (${this.limits.defaultTimeZone}).` };
    }
    if (!isTimeZone(zone)) return { ok: false, text: `\`${zone}\` is not a time zone I know: use an IANA name such as Europe/Paris or America/New_York.` };
    await this.store.workspaceSettings.set(where, "timeZone", zone, actor.userId);
    return { ok: true, text: `Scheduled times here are now in ${zone} (tasks made from now on; existing ones keep theirs).` };
  }

  private async manage(
    command: Extract<ScheduleCommand, { kind: "schedule_task" }>,
    where: CommandPlace,
    actor: CommandActor,
    membersMay: boolean,
  ): Promise<CommandResult> {
    const task = await this.store.schedules.get(command.id);
    if (!task || task.platform !== where.platform || task.workspaceId !== where.workspaceId) {
      return { ok: false, text: `There is no task \`${command.id}\` here; \`/schedule list\` shows them.` };
    }
    if (command.action === "history") return { ok: true, text: await this.describeHistory(task) };
    const mayManage = actor.role === "admin" || (membersMay && task.creator === actor.userId);
    if (!mayManage) return { ok: false, text: "Only admins, and with `/settings schedules members` the task's creator, can change this task." };
    switch (command.action) {
      case "remove":
        await this.store.schedules.remove(task.id);
        this.trigger?.changed();
        return { ok: true, text: `Removed \`${task.id}\` and its history.` };
      case "pause":
        await this.store.schedules.setStatus(task.id, "paused");
        this.trigger?.changed();
        return { ok: true, text: `Paused \`${task.id}\`; \`/schedule resume ${task.id}\` lets it run again.` };
      case "resume": {
        const next = nextTimes(scheduleOf(task), task.timeZone, this.now(), 1)[0];
        if (next === undefined) return { ok: false, text: `\`${task.id}\` was a one-off time that has passed; \`/schedule run ${task.id}\` runs it now.` };
        await this.store.schedules.setStatus(task.id, "active", next);
        this.trigger?.changed();
        return { ok: true, text: `Resumed \`${task.id}\`; next run: ${formatTime(next, task.timeZone)}.` };
      }
      case "run":
        if (!this.trigger) return { ok: false, text: "The scheduler is not running in this process." };
        return { ok: true, text: await this.trigger.runNow(task) };
    }
  }

  private async describeList(where: CommandPlace): Promise<string> {
    const tasks = await this.store.schedules.list(where);
    if (tasks.length === 0) return "No scheduled tasks here yet. `/schedule add WHEN | TASK` makes one.";
    const lines = await Promise.all(
      tasks.map(async (task) => {
        const last = (await this.store.schedules.history(task.id, 1))[0];
        const next = task.nextDue === undefined ? task.status : formatTime(task.nextDue, task.timeZone);
        return `\`${task.id}\` ${task.whenText} (<#${task.channelId}>): ${preview(task.task, 60)}, by <@${task.creator}>; next: ${next}; last: ${last?.status ?? "none yet"}`;
      }),
    );
    return `**Scheduled tasks** (${tasks.length}/${this.limits.maxPerWorkspace}):\n${lines.join("\n")}`;
  }

  private async describeHistory(task: ScheduledTask): Promise<string> {
    const runs = await this.store.schedules.history(task.id, HISTORY_RUNS);
    if (runs.length === 0) return `\`${task.id}\` has not run yet${task.nextDue === undefined ? "" : `; next: ${formatTime(task.nextDue, task.timeZone)}`}.`;
    return `**Last runs of \`${task.id}\`:**\n${runs.map((run) => runLine(run, task.timeZone)).join("\n")}`;
  }
}

function runLine(run: ScheduledRun, timeZone: string): string {
  const parts = [formatTime(run.dueAt, timeZone), run.status, `${run.tokens} tokens`, run.link, run.detail].filter(Boolean);
  return parts.join(" · ");
}

export const scheduleOf = (task: ScheduledTask): Schedule =>
  task.cron === undefined ? { kind: "once", at: task.nextDue ?? task.createdAt } : { kind: "recurring", cron: task.cron };

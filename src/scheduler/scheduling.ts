import type { Config } from "../config/env.js";
import type { Logger } from "../log.js";
import { ScheduleCommands } from "../runner/commands/schedule-commands.js";
import type { Store } from "../store/store.js";
import type { ReminderDesk } from "../tools/builtin/reminder.js";
import { RunPoster } from "./run-poster.js";
import { Scheduler } from "./scheduler.js";

export interface Scheduling {
  /** Given to PlatformLinks: each platform's surface and inbox, as it connects. */
  poster: RunPoster;
  scheduler: Scheduler;
  /** The schedule commands (and the reminder tool's way of creating tasks). */
  commands: ScheduleCommands;
  /** The create_reminder tool's desk: one-off tasks for the asker in the asking channel. */
  reminders: ReminderDesk;
}

/** The scheduled tasks' parts (issue 26), wired together; `scheduler.start()` begins running them. */
export function createScheduling(config: Config, store: Store, logger: Logger, instance: string): Scheduling {
  const poster = new RunPoster();
  const scheduler = new Scheduler({
    schedules: store.schedules,
    instance,
    logger,
    catchUpMs: config.SCHEDULE_CATCHUP_MS,
    run: (task, dueAt) => poster.run(task, dueAt),
    tell: (task, text) => poster.tell(task, text),
    serves: (platform) => poster.serves(platform),
  });
  // A platform that connects may have tasks already due.
  poster.onAttach = () => scheduler.changed();
  const commands = new ScheduleCommands(
    store,
    {
      defaultTimeZone: config.SCHEDULE_TIMEZONE,
      maxPerWorkspace: config.SCHEDULE_MAX_PER_WORKSPACE,
      minIntervalMinutes: config.SCHEDULE_MIN_INTERVAL_MINUTES,
    },
    scheduler,
  );
  const reminders: ReminderDesk = {
    async remind(request, when, text) {
      const place = { platform: request.platform, workspaceId: request.workspaceId, channelId: request.channelId };
      const created = await commands.create({ place, creator: request.userId, whenText: when, task: `Remind <@${request.userId}>: ${text}`, onceOnly: true });
      return "error" in created ? `Could not set the reminder: ${created.error}` : `Reminder set. ${created.text}`;
    },
  };
  return { poster, scheduler, commands, reminders };
}

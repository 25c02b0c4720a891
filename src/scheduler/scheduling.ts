import type { Config } from "../config/env.js";
import type { Logger } from "../log.js";
import { ScheduleCommands } from "../runner/commands/schedule-commands.js";
import type { Store } from "../store/store.js";
import { RunPoster } from "./run-poster.js";
import { Scheduler } from "./scheduler.js";

export interface Scheduling {
  /** Given to PlatformLinks: each platform's surface and inbox, as it connects. */
  poster: RunPoster;
  scheduler: Scheduler;
  /** The schedule commands (and the reminder tool's way of creating tasks). */
  commands: ScheduleCommands;
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
  return { poster, scheduler, commands };
}

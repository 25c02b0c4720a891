import { Cron } from "croner";

/** What WHEN means: a recurring 5-field cron (in a time zone) or one time. */
export type Schedule = { kind: "recurring"; cron: string } | { kind: "once"; at: number };

export type WhenResult = { schedule: Schedule } | { error: string };

const WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"] as const;
const UNIT_MS = { second: 1_000, minute: 60_000, hour: 3_600_000, day: 86_400_000 } as const;
const CLOCK = String.raw`(\d{1,2})(?::(\d{2}))?\s*(am|pm)?`;
const EVERY_DAY = new RegExp(String.raw`^every\s+day\s+at\s+${CLOCK}$`);
const EVERY_WEEKDAY = new RegExp(String.raw`^every\s+weekday\s+at\s+${CLOCK}$`);
const EVERY_NAMED_DAY = new RegExp(String.raw`^every\s+(${WEEKDAYS.join("|")})\s+at\s+${CLOCK}$`);
const EVERY_STEP = /^every\s+(?:(\d+)\s+)?(minute|hour)s?$/;
const IN = /^in\s+(\d+)\s+(second|minute|hour|day)s?$/;
const AT_DATE = /^at\s+(\d{4})-(\d{2})-(\d{2})[ T](\d{1,2}):(\d{2})$/;
const CRON_FIELDS = /^\S+(\s+\S+){4}$/;

/** Whether `zone` is an IANA time-zone name this runtime knows. */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return zone.length > 0;
  } catch {
    return false;
  }
}

/** "9", "9:30", "9pm" as hour and minute, or undefined when it is no time of day. */
function clock(hourText: string, minuteText: string | undefined, meridiem: string | undefined): { hour: number; minute: number } | undefined {
  let hour = Number(hourText);
  const minute = minuteText === undefined ? 0 : Number(minuteText);
  if (meridiem) {
    if (hour < 1 || hour > 12) return undefined;
    hour = (hour % 12) + (meridiem === "pm" ? 12 : 0);
  }
  return hour <= 23 && minute <= 59 ? { hour, minute } : undefined;
}

const recurring = (cron: string): WhenResult => {
  try {
    new Cron(cron, { paused: true });
    return { schedule: { kind: "recurring", cron } };
  } catch (error) {
    return { error: `"${cron}" is not a cron expression this bot understands (${(error as Error).message.replace(/^CronPattern:\s*/, "")}).` };
  }
};

/**
 * Reads WHEN: a 5-field cron expression (`0 9 * * 1-5`) or one of the phrases `every day at 9:00`,
 * `every monday at 08:30`, `every weekday at 9`, `every 2 hours`, `every 15 minutes`,
 * `in 20 minutes`, `in 30 seconds`, `at 2026-12-24 18:00` (in `timeZone`).
 */
export function parseWhen(input: string, options: { now: number; timeZone: string }): WhenResult {
  const text = input.trim().toLowerCase().replace(/\s+/g, " ");
  const invalidTime = { error: `"${input.trim()}" names a time of day that does not exist (hours 0–23 or 1–12 with am/pm, minutes 0–59).` };
  let match = EVERY_DAY.exec(text);
  if (match) {
    const time = clock(match[1] as string, match[2], match[3]);
    return time ? recurring(`${time.minute} ${time.hour} * * *`) : invalidTime;
  }
  match = EVERY_WEEKDAY.exec(text);
  if (match) {
    const time = clock(match[1] as string, match[2], match[3]);
    return time ? recurring(`${time.minute} ${time.hour} * * 1-5`) : invalidTime;
  }
  match = EVERY_NAMED_DAY.exec(text);
  if (match) {
    const time = clock(match[2] as string, match[3], match[4]);
    return time ? recurring(`${time.minute} ${time.hour} * * ${WEEKDAYS.indexOf(match[1] as (typeof WEEKDAYS)[number])}`) : invalidTime;
  }
  match = EVERY_STEP.exec(text);
  if (match) {
    const step = match[1] === undefined ? 1 : Number(match[1]);
    const unit = match[2] as "minute" | "hour";
    const limit = unit === "minute" ? 60 : 24;
    // A cron step restarts each hour (or day): only steps that divide it keep the intervals even.
    if (step < 1 || step > limit || limit % step !== 0)
      return { error: `every ${step} ${unit}s does not divide ${unit === "minute" ? "an hour" : "a day"} evenly; use a cron expression instead.` };
    if (unit === "minute") return recurring(step === 60 ? "0 * * * *" : `*/${step} * * * *`);
    return recurring(step === 24 ? "0 0 * * *" : step === 1 ? "0 * * * *" : `0 */${step} * * *`);
  }
  match = IN.exec(text);
  if (match) {
    const amount = Number(match[1]);
    const delay = amount * UNIT_MS[match[2] as keyof typeof UNIT_MS];
    if (amount < 1 || delay > 366 * UNIT_MS.day) return { error: "a one-off time must be between one second and a year away." };
    return { schedule: { kind: "once", at: options.now + delay } };
  }
  match = AT_DATE.exec(text);
  if (match) {
    const [, year, month, day, hour, minute] = match as unknown as [string, string, string, string, string, string];
    if (Number(hour) > 23 || Number(minute) > 59 || Number(month) < 1 || Number(month) > 12 || Number(day) < 1 || Number(day) > 31) return invalidTime;
    const local = `${year}-${month}-${day}T${hour.padStart(2, "0")}:${minute}:00`;
    // Croner reads a date without an offset in the time zone given (and skips a time DST removed).
    const at = new Cron(local, { paused: true, timezone: options.timeZone }).nextRun(new Date(options.now - 1))?.getTime();
    if (at === undefined) return { error: `${year}-${month}-${day} ${hour}:${minute} is in the past.` };
    return { schedule: { kind: "once", at } };
  }
  if (CRON_FIELDS.test(text)) return recurring(text);
  return {
    error:
      'WHEN is a 5-field cron expression ("0 9 * * 1-5") or one of: "every day at 9:00", "every monday at 08:30", "every weekday at 9", "every 2 hours", "in 20 minutes", "at 2026-12-24 18:00".',
  };
}

/** The next `count` due times strictly after `after`, in ms since the epoch. */
export function nextTimes(schedule: Schedule, timeZone: string, after: number, count: number): number[] {
  if (schedule.kind === "once") return schedule.at > after ? [schedule.at] : [];
  return new Cron(schedule.cron, { paused: true, timezone: timeZone }).nextRuns(count, new Date(after)).map((date) => date.getTime());
}

/**
 * Why a recurring cron fires too often (more than once per `minMinutes` at some point in the next
 * few hundred runs, which covers a cron's day, week and DST patterns), or undefined.
 */
export function tooFrequent(cron: string, timeZone: string, minMinutes: number, now: number): string | undefined {
  const times = nextTimes({ kind: "recurring", cron }, timeZone, now, 150);
  let shortest = Number.POSITIVE_INFINITY;
  for (let index = 1; index < times.length; index++) shortest = Math.min(shortest, (times[index] as number) - (times[index - 1] as number));
  if (shortest >= minMinutes * 60_000) return undefined;
  const gap = shortest < 60_000 ? `${Math.round(shortest / 1_000)} seconds` : `${Math.round(shortest / 60_000)} minutes`;
  return `"${cron}" would run every ${gap}; recurring tasks may run at most once every ${minMinutes} minutes (SCHEDULE_MIN_INTERVAL_MINUTES).`;
}

/** A time as people of the zone read it: "Thu, 24 Dec 2026, 18:00". */
export function formatTime(time: number, timeZone: string): string {
  return new Intl.DateTimeFormat("en-GB", {
    timeZone,
    weekday: "short",
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).format(new Date(time));
}

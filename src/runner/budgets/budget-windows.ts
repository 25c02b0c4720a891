import type { WorkspaceSettings } from "../../store/workspace-settings.js";
import type { BudgetPeriod } from "../../contract/commands.js";

/**
 * The time zone a workspace's budget days and months follow: the one set with `/settings
 * timezone` (checked as an IANA name when set), else UTC.
 */
export function budgetTimeZone(settings: WorkspaceSettings): string {
  return settings.timeZone ?? "UTC";
}

/** The start of the calendar day or month that `time` falls in, in `timeZone` (an IANA name). */
export function windowStart(period: BudgetPeriod, time: number, timeZone: string): number {
  const { year, month, day } = localDate(time, timeZone);
  const localMidnight = Date.UTC(year, month - 1, period === "day" ? day : 1);
  return localMidnight - offsetMs(localMidnight, timeZone);
}

/** The start of the next window: when a budget reached is back. */
export function windowEnd(period: BudgetPeriod, time: number, timeZone: string): number {
  const { year, month, day } = localDate(time, timeZone);
  const next = period === "day" ? Date.UTC(year, month - 1, day + 1) : Date.UTC(year, month, 1);
  return next - offsetMs(next, timeZone);
}

function localDate(time: number, timeZone: string): { year: number; month: number; day: number } {
  if (timeZone === "UTC") {
    const date = new Date(time);
    return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
  }
  const parts = new Intl.DateTimeFormat("en-US", { timeZone, year: "numeric", month: "numeric", day: "numeric" }).formatToParts(time);
  const part = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  return { year: part("year"), month: part("month"), day: part("day") };
}

/** How far `timeZone` is ahead of UTC around `time` (close enough for midnights: zones change at night, not at midnight). */
function offsetMs(time: number, timeZone: string): number {
  if (timeZone === "UTC") return 0;
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    second: "numeric",
  }).formatToParts(time);
  const part = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  return Date.UTC(part("year"), part("month") - 1, part("day"), part("hour"), part("minute"), part("second")) - (time - (time % 1000));
}

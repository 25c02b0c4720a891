import { describe, expect, it } from "vitest";
import { formatTime, isTimeZone, nextTimes, parseWhen, tooFrequent, type Schedule } from "../../src/scheduler/when.js";

/** Every WHEN form of issue 26, read at a fixed "now" (Tue 1 Dec 2026, 10:00 UTC), and a DST night. */
const NOW = Date.UTC(2026, 11, 1, 10, 0, 0);

function schedule(text: string, timeZone = "UTC"): Schedule {
  const result = parseWhen(text, { now: NOW, timeZone });
  if ("error" in result) throw new Error(result.error);
  return result.schedule;
}

const iso = (times: number[]) => times.map((time) => new Date(time).toISOString());

describe("WHEN, as people type it", () => {
  it.each([
    ["0 9 * * 1-5", "0 9 * * 1-5"],
    ["every day at 9:00", "0 9 * * *"],
    ["every day at 9pm", "0 21 * * *"],
    ["every monday at 08:30", "30 8 * * 1"],
    ["Every Sunday at 7", "0 7 * * 0"],
    ["every weekday at 9", "0 9 * * 1-5"],
    ["every 2 hours", "0 */2 * * *"],
    ["every hour", "0 * * * *"],
    ["every 15 minutes", "*/15 * * * *"],
  ])("%s is the cron %s", (text, cron) => {
    expect(schedule(text)).toEqual({ kind: "recurring", cron });
  });

  it.each([
    ["in 20 minutes", NOW + 20 * 60_000],
    ["in 30 seconds", NOW + 30_000],
    ["in 2 hours", NOW + 2 * 3_600_000],
    ["in 1 day", NOW + 86_400_000],
  ])("%s is one time", (text, at) => {
    expect(schedule(text)).toEqual({ kind: "once", at });
  });

  it("reads a date and time in the workspace's time zone", () => {
    expect(schedule("at 2026-12-24 18:00")).toEqual({ kind: "once", at: Date.UTC(2026, 11, 24, 18, 0) });
    expect(schedule("at 2026-12-24 18:00", "Asia/Tokyo")).toEqual({ kind: "once", at: Date.UTC(2026, 11, 24, 9, 0) });
  });

  it("says why it cannot read the rest", () => {
    const error = (text: string) => {
      const result = parseWhen(text, { now: NOW, timeZone: "UTC" });
      return "error" in result ? result.error : "";
    };
    expect(error("tomorrow-ish")).toMatch(/5-field cron expression/);
    expect(error("every day at 25:00")).toMatch(/does not exist/);
    expect(error("every 7 hours")).toMatch(/does not divide a day evenly/);
    expect(error("at 2025-01-01 10:00")).toMatch(/in the past/);
    expect(error("61 * * * *")).toMatch(/not a cron expression/);
    expect(error("in 0 minutes")).toMatch(/between one second and a year/);
  });
});

describe("next times and time zones", () => {
  it("gives the next three times of a weekday task in its zone", () => {
    const times = nextTimes(schedule("every weekday at 9"), "Europe/Paris", NOW, 3);
    expect(iso(times)).toEqual(["2026-12-02T08:00:00.000Z", "2026-12-03T08:00:00.000Z", "2026-12-04T08:00:00.000Z"]);
    expect(formatTime(times[0] as number, "Europe/Paris")).toBe("Wed, 2 Dec 2026, 09:00");
  });

  it("keeps 9:00 local across the autumn DST change, and runs 02:30 once on the spring night that skips it", () => {
    const autumn = nextTimes({ kind: "recurring", cron: "0 9 * * *" }, "America/New_York", Date.UTC(2026, 9, 31), 3);
    expect(iso(autumn)).toEqual(["2026-10-31T13:00:00.000Z", "2026-11-01T14:00:00.000Z", "2026-11-02T14:00:00.000Z"]);
    const spring = nextTimes({ kind: "recurring", cron: "30 2 * * *" }, "Europe/Paris", Date.UTC(2026, 2, 28), 3);
    expect(spring).toHaveLength(3);
    // 28 March 02:30 CET; on the 29th 02:30 does not exist (02:00 → 03:00): it runs once, at 03:00 CEST; then 02:30 CEST.
    expect(iso(spring)).toEqual(["2026-03-28T01:30:00.000Z", "2026-03-29T01:00:00.000Z", "2026-03-30T00:30:00.000Z"]);
    expect(new Set(spring.map((time) => formatTime(time, "Europe/Paris").slice(0, 10))).size).toBe(3);
  });

  it("refuses a recurring cron that fires more often than the minimum interval, with the reason", () => {
    expect(tooFrequent("*/2 * * * *", "UTC", 5, NOW)).toMatch(/every 2 minutes; recurring tasks may run at most once every 5 minutes/);
    expect(tooFrequent("0,1 9 * * *", "UTC", 5, NOW)).toMatch(/every 1 minutes/);
    expect(tooFrequent("*/5 * * * *", "UTC", 5, NOW)).toBeUndefined();
    expect(tooFrequent("0 9 * * 1-5", "UTC", 5, NOW)).toBeUndefined();
  });

  it("knows IANA zone names", () => {
    expect(isTimeZone("Europe/Paris")).toBe(true);
    expect(isTimeZone("UTC")).toBe(true);
    expect(isTimeZone("Mars/Olympus")).toBe(false);
    expect(isTimeZone("")).toBe(false);
  });
});

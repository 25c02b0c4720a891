import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { silentLogger } from "../../src/log.js";
import type { RunOutcome } from "../../src/scheduler/run-poster.js";
import { Scheduler } from "../../src/scheduler/scheduler.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";

/** The scheduler's one timer, on a fake clock: idle costs a read a minute, and a due time fires on time, once. */
describe("the scheduler's timer", () => {
  let store: SqliteStore;
  let scheduler: Scheduler;
  const runs: { id: string; dueAt: number; at: number }[] = [];
  let reads = 0;

  beforeEach(() => {
    vi.useFakeTimers({ now: Date.UTC(2026, 11, 1, 8, 0) });
    store = SqliteStore.open(":memory:");
    const due = store.schedules.due.bind(store.schedules);
    store.schedules.due = (now, limit) => {
      reads++;
      return due(now, limit);
    };
    runs.length = 0;
    reads = 0;
    scheduler = new Scheduler({
      schedules: store.schedules,
      instance: "i1",
      logger: silentLogger(),
      catchUpMs: 3_600_000,
      run: async (task, dueAt): Promise<RunOutcome> => {
        runs.push({ id: task.id, dueAt, at: Date.now() });
        return { status: "ok", tokens: 1 };
      },
      tell: async () => {},
      serves: (platform) => platform === "test",
    });
  });
  afterEach(async () => {
    await scheduler.stop();
    await store.close();
    vi.useRealTimers();
  });

  it("reads the store once a minute while idle, not every second", async () => {
    scheduler.start();
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(reads).toBeGreaterThanOrEqual(10);
    expect(reads).toBeLessThanOrEqual(12);
  });

  it("does not spin on a due task of a platform this process does not serve", async () => {
    await store.schedules.create({
      id: "other",
      platform: "elsewhere",
      workspaceId: "w",
      channelId: "c",
      creator: "u",
      whenText: "in 1 second",
      timeZone: "UTC",
      task: "not ours",
      nextDue: Date.now() - 1_000,
      createdAt: Date.now(),
    });
    scheduler.start();
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    expect(reads).toBeLessThanOrEqual(7);
    expect(runs).toEqual([]);
  });

  it("runs a weekday-at-9 task at 09:00 once, then waits for the next day", async () => {
    const nine = Date.UTC(2026, 11, 1, 9, 0);
    await store.schedules.create({
      id: "t1",
      platform: "test",
      workspaceId: "w",
      channelId: "c",
      creator: "u",
      whenText: "every weekday at 9",
      cron: "0 9 * * 1-5",
      timeZone: "UTC",
      task: "news",
      nextDue: nine,
      createdAt: Date.now(),
    });
    scheduler.start();
    await vi.advanceTimersByTimeAsync(60 * 60_000 - 1_000);
    expect(runs).toEqual([]);
    await vi.advanceTimersByTimeAsync(2 * 60 * 60_000);
    expect(runs).toEqual([{ id: "t1", dueAt: nine, at: nine }]);
    expect((await store.schedules.get("t1"))?.nextDue).toBe(Date.UTC(2026, 11, 2, 9, 0));
    expect((await store.schedules.history("t1", 10)).map((run) => run.status)).toEqual(["ok"]);
  });
});

import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import type { Store } from "../../src/store/store.js";
import { describeOnEngines } from "./engines.js";

/**
 * The store contract for scheduled tasks (issue 26), the same on both engines, with three stores on
 * one database standing for three processes: each due time is claimed by exactly one of them.
 */
await describeOnEngines(
  (engine) => `the ${engine.name} store's scheduled tasks`,
  3,
  (it) => {
    const newTask = (overrides: { cron?: string; nextDue?: number } = {}) => {
      const workspaceId = `w-${randomUUID()}`;
      return {
        id: randomUUID().slice(0, 8),
        platform: "test",
        workspaceId,
        channelId: "c1",
        creator: "u1",
        whenText: "every day at 9:00",
        cron: "0 9 * * *",
        timeZone: "Europe/Paris",
        task: "Post the news",
        nextDue: 1_000_000,
        createdAt: 500,
        ...overrides,
      };
    };

    it("keeps a task, lists and counts it per workspace, pauses, resumes and removes it", async ({ stores }) => {
      const [a, b] = stores as [Store, Store];
      const task = newTask();
      await a.schedules.create(task);
      expect(await b.schedules.get(task.id)).toEqual({ ...task, status: "active", failures: 0 });
      expect(await b.schedules.list({ platform: "test", workspaceId: task.workspaceId })).toHaveLength(1);
      expect(await b.schedules.count({ platform: "test", workspaceId: task.workspaceId })).toBe(1);
      expect(await b.schedules.count({ platform: "test", workspaceId: "other" })).toBe(0);
      expect(await b.schedules.setStatus(task.id, "paused")).toBe(true);
      expect(await a.schedules.get(task.id)).toMatchObject({ status: "paused" });
      expect((await a.schedules.get(task.id))?.nextDue).toBeUndefined();
      expect(await a.schedules.setStatus(task.id, "active", 2_000_000)).toBe(true);
      expect(await b.schedules.get(task.id)).toMatchObject({ status: "active", nextDue: 2_000_000 });
      expect(await b.schedules.remove(task.id)).toBe(true);
      expect(await a.schedules.get(task.id)).toBeUndefined();
      expect(await a.schedules.remove(task.id)).toBe(false);
    });

    it("gives each due time to exactly one of three processes claiming it at once, and moves the task on", async ({ shared, stores }) => {
      const task = newTask({ nextDue: 3_000_000 });
      await stores[0]?.schedules.create(task);
      expect((await stores[1]?.schedules.due(3_000_000, 100))?.map((due) => due.id)).toContain(task.id);
      for (let round = 0; round < 5; round++) {
        const dueAt = 3_000_000 + round * 60_000;
        const wins = await Promise.all(
          stores.map((store, index) =>
            store.schedules.claim({ taskId: task.id, dueAt, nextDue: dueAt + 60_000, instance: `i${index}`, status: "running", at: dueAt }),
          ),
        );
        expect(wins.filter(Boolean)).toHaveLength(1);
        expect(await stores[2]?.schedules.get(task.id)).toMatchObject({ nextDue: dueAt + 60_000, status: "active" });
      }
      expect(await stores[0]?.schedules.history(task.id, 10)).toHaveLength(5);
      const rows = await shared.rows(`SELECT task_id, due_at, COUNT(*) AS n FROM scheduled_runs GROUP BY task_id, due_at HAVING COUNT(*) > 1`);
      expect(rows).toEqual([]);
    });

    it("marks a one-off task done once claimed; a run asked for now leaves the next due time alone", async ({ stores }) => {
      const [a, b] = stores as [Store, Store];
      const once = newTask({ cron: undefined, nextDue: 4_000_000 });
      await a.schedules.create({ ...once, cron: undefined });
      expect(await b.schedules.claim({ taskId: once.id, dueAt: 4_000_000, instance: "i1", status: "running", at: 4_000_000 })).toBe(true);
      expect(await a.schedules.get(once.id)).toMatchObject({ status: "done" });
      expect((await a.schedules.get(once.id))?.nextDue).toBeUndefined();

      const recurring = newTask({ nextDue: 9_000_000 });
      await a.schedules.create(recurring);
      expect(await b.schedules.claim({ taskId: recurring.id, dueAt: 4_100_000, instance: "i1", status: "running", at: 4_100_000, keepNextDue: true })).toBe(
        true,
      );
      expect(await a.schedules.get(recurring.id)).toMatchObject({ status: "active", nextDue: 9_000_000 });
    });

    it("records ends, tokens and links; counts failures in a row; records missed times; the earliest due time is known", async ({ stores }) => {
      const [a, b] = stores as [Store, Store];
      const task = newTask({ nextDue: 100 });
      await a.schedules.create(task);
      expect(await b.schedules.nextDueTime()).toBe(100);
      await a.schedules.claim({ taskId: task.id, dueAt: 100, nextDue: 200, instance: "i1", status: "missed", detail: "no process was up", at: 5_000 });
      for (const [dueAt, status] of [
        [200, "failed"],
        [300, "failed"],
      ] as const) {
        await a.schedules.claim({ taskId: task.id, dueAt, nextDue: dueAt + 100, instance: "i1", status: "running", at: dueAt + 5_000 });
        expect(await b.schedules.finish(task.id, dueAt, { status, tokens: 7, at: dueAt + 5_001, detail: "the model failed" })).toBe(dueAt / 100 - 1);
      }
      await a.schedules.claim({ taskId: task.id, dueAt: 400, nextDue: 500, instance: "i1", status: "running", at: 9_000 });
      expect(await b.schedules.finish(task.id, 400, { status: "ok", tokens: 42, link: "https://example.test/p/1", at: 9_001 })).toBe(0);
      const history = await b.schedules.history(task.id, 10);
      expect(history.map((run) => run.status)).toEqual(["ok", "failed", "failed", "missed"]);
      expect(history[0]).toMatchObject({ dueAt: 400, tokens: 42, link: "https://example.test/p/1", finishedAt: 9_001 });
      expect(history[3]).toMatchObject({ dueAt: 100, detail: "no process was up" });
      expect(await b.schedules.history(task.id, 2)).toHaveLength(2);
    });

    it("keeps the newest 100 runs of a task, so a frequent task's history stays bounded", async ({ stores }) => {
      const [a] = stores as [Store];
      const task = newTask({ nextDue: 0 });
      await a.schedules.create(task);
      for (let index = 0; index < 105; index++) {
        const dueAt = index * 300_000;
        await a.schedules.claim({ taskId: task.id, dueAt, nextDue: dueAt + 300_000, instance: "i1", status: "running", at: dueAt });
        await a.schedules.finish(task.id, dueAt, { status: "ok", tokens: 1, at: dueAt + 1 });
      }
      const history = await a.schedules.history(task.id, 1_000);
      expect(history).toHaveLength(100);
      expect(history.at(-1)?.dueAt).toBe(5 * 300_000);
    });

    it("marks runs of process runs no longer registered as interrupted, and leaves live ones running", async ({ stores }) => {
      const [a, b] = stores as [Store, Store];
      const live = { id: `live-${randomUUID()}`, name: "bot", host: "h", pid: 1 };
      await a.instances.register(live);
      const task = newTask({ nextDue: 10 });
      await a.schedules.create(task);
      await a.schedules.claim({ taskId: task.id, dueAt: 10, nextDue: 20, instance: live.id, status: "running", at: 10 });
      await a.schedules.claim({ taskId: task.id, dueAt: 20, nextDue: 30, instance: "gone", status: "running", at: 20 });
      expect(await b.schedules.interruptOrphans(50)).toBeGreaterThanOrEqual(1);
      const history = await a.schedules.history(task.id, 10);
      expect(history.find((run) => run.dueAt === 20)).toMatchObject({ status: "interrupted", finishedAt: 50 });
      expect(history.find((run) => run.dueAt === 10)).toMatchObject({ status: "running" });
      await a.instances.leave(live);
    });
  },
);

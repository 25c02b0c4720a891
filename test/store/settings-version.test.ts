import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setImmediate as nextPass } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";

describe("SQLite settings cache, one look at the version row per pass of the event loop", () => {
  const dir = mkdtempSync(join(tmpdir(), "agent-bot-settings-version-"));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("shows this process's change at once and another process's from the next pass", async () => {
    const path = join(dir, "bot.sqlite");
    const [a, b] = [SqliteStore.open(path), SqliteStore.open(path)];
    const workspace = { platform: "p", workspaceId: "w" };
    try {
      expect((await a.workspaceSettings.get(workspace)).memoryWindow).toBeUndefined();
      await a.workspaceSettings.set(workspace, "memoryWindow", 3, "admin");
      expect((await a.workspaceSettings.get(workspace)).memoryWindow).toBe(3);

      await b.workspaceSettings.set(workspace, "memoryWindow", 7, "admin");
      await nextPass();
      expect((await a.workspaceSettings.get(workspace)).memoryWindow).toBe(7);
      await b.channelSettings.set({ ...workspace, channelId: "c" }, "memoryWindow", 2, "admin");
      await nextPass();
      expect((await a.channelSettings.get({ ...workspace, channelId: "c" })).memoryWindow).toBe(2);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("caches the admins' budgets like the settings: a change here shows at once, another process's from the next pass", async () => {
    const path = join(dir, "budgets.sqlite");
    const [a, b] = [SqliteStore.open(path), SqliteStore.open(path)];
    const workspace = { platform: "p", workspaceId: "w" };
    const amounts = async (store: SqliteStore) => (await store.budgets.limits(workspace)).map((row) => row.amount);
    try {
      await a.budgets.setLimit(workspace, { scope: "workspace", subject: "", period: "day" }, { unit: "tokens", amount: 1_000 }, "admin");
      expect(await amounts(a)).toEqual([1_000]);
      // A row changed behind the store's back (no version bump) is not seen: the turn's reads come from the cache.
      a.db.prepare("UPDATE budget_limits SET amount = 5").run();
      await nextPass();
      expect(await amounts(a)).toEqual([1_000]);

      await b.budgets.setLimit(workspace, { scope: "workspace", subject: "", period: "day" }, { unit: "tokens", amount: 2_000 }, "admin");
      expect(await amounts(b)).toEqual([2_000]);
      await nextPass();
      expect(await amounts(a)).toEqual([2_000]);
      await b.budgets.setLimit(workspace, { scope: "workspace", subject: "", period: "day" }, undefined, "admin");
      await nextPass();
      expect(await amounts(a)).toEqual([]);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { silentLogger } from "../../src/log.js";
import { StorePruner } from "../../src/store/pruner.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import type { PruneCounts, RetentionStore } from "../../src/store/store.js";

const DAY_MS = 24 * 60 * 60 * 1000;

describe("the store pruner", () => {
  let dir: string;
  let store: SqliteStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "agent-bot-pruner-"));
    store = SqliteStore.open(join(dir, "bot.sqlite"));
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("forgets bot threads past BOT_THREAD_RETENTION_DAYS and claims past a week, in rounds of at most 500 rows", async () => {
    const rounds: PruneCounts[] = [];
    const counting: RetentionStore = {
      pruneRound: async (cutoffs, limit) => {
        const counts = await store.retention.pruneRound(cutoffs, limit);
        rounds.push(counts);
        return counts;
      },
    };
    const pruner = new StorePruner(counting, { threadRetentionDays: 30, logger: silentLogger() });
    await store.threads.remember({ platform: "slack", workspaceId: "T1", channelId: "C1", threadId: "1.1" });
    for (let i = 0; i < 1_200; i++) await store.events.claim("slack", `C1:${i}`);

    expect(await pruner.sweep(Date.now() + 6 * DAY_MS)).toEqual({ threads: 0, seeds: 0, claims: 0, spend: 0 });
    expect(await pruner.sweep(Date.now() + 8 * DAY_MS)).toEqual({ threads: 0, seeds: 0, claims: 1_200, spend: 0 });
    expect(rounds.slice(1).map((round) => round.claims)).toEqual([500, 500, 200]);
    expect(await store.threads.scopeOf("slack", "C1", "1.1")).toBe("thread");

    expect(await pruner.sweep(Date.now() + 31 * DAY_MS)).toEqual({ threads: 1, seeds: 0, claims: 0, spend: 0 });
    expect(await store.threads.scopeOf("slack", "C1", "1.1")).toBeUndefined();
    await pruner.stop();
  });
});

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/env.js";
import { storeSettingsOf } from "../../src/config/store-settings.js";
import { silentLogger } from "../../src/log.js";
import { openStore } from "../../src/store/open-store.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";

describe("src/store/sqlite/database.ts: SQLite's page cache follows DATABASE_CACHE_MB; temporary storage stays in memory", () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  const storeWith = async (env: Record<string, string>) => {
    dir = mkdtempSync(join(tmpdir(), "agent-bot-page-cache-"));
    const config = loadConfig({ DATABASE_PATH: join(dir, "bot.sqlite"), ...env });
    const store = await openStore(storeSettingsOf(config, silentLogger()));
    if (!(store instanceof SqliteStore)) throw new Error("expected the SQLite store");
    return store;
  };

  it("keeps 2 MB by default instead of the library's 16 MB, which a busy bot fills and keeps resident", async () => {
    const store = await storeWith({});
    try {
      // negative: KiB
      expect(store.db.pragma("cache_size", { simple: true })).toBe(-2048);
    } finally {
      await store.close();
    }
  });

  it("takes the operator's size", async () => {
    const store = await storeWith({ DATABASE_CACHE_MB: "24" });
    try {
      expect(store.db.pragma("cache_size", { simple: true })).toBe(-24 * 1024);
    } finally {
      await store.close();
    }
  });

  it("keeps temporary storage in memory: a statement journal of a long transaction (the history index's batches) is not written to a file", async () => {
    const store = await storeWith({});
    try {
      // 2: MEMORY (0 is the build's default, a file once past 64 KiB)
      expect(store.db.pragma("temp_store", { simple: true })).toBe(2);
    } finally {
      await store.close();
    }
  });

  it("refuses a size that is not a whole number of MB above 0", () => {
    expect(() => loadConfig({ DATABASE_CACHE_MB: "0" })).toThrow(/DATABASE_CACHE_MB/);
  });
});

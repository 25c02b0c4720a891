import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDatabase, type Db } from "../../src/store/sqlite/database.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";

/**
 * Another connection, on its own thread (as the checkpoint thread or another process would be),
 * that takes the write lock, writes a row into `scratch` when it exists, and commits `holdMs`
 * after this thread says it is about to start its transaction. Its own thread because this one
 * sits in SQLite's busy wait meanwhile, its event loop blocked.
 */
const HOLDER = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require("better-sqlite3");
const { path, holdMs, go } = workerData;
const db = new Database(path);
db.exec("BEGIN IMMEDIATE");
const scratch = db.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'scratch'").get();
if (scratch) db.prepare("INSERT INTO scratch (n) VALUES (1)").run();
parentPort.postMessage("locked");
// Until the other thread is about to begin (bounded), then the hold itself.
Atomics.wait(go, 0, 0, 10000);
Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, holdMs);
db.exec("COMMIT");
db.close();
`;

interface Holder {
  /** Called right before this thread's transaction: the holder commits `holdMs` after it. */
  starting(): void;
  /** Resolves when the holder's thread has committed and ended. */
  done: Promise<void>;
}

async function holdWriteLock(path: string, holdMs: number): Promise<Holder> {
  const go = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(HOLDER, { eval: true, workerData: { path, holdMs, go } });
  const done = new Promise<void>((resolve, reject) => {
    worker.once("error", reject);
    worker.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`the lock holder exited with ${code}`))));
  });
  await Promise.race([new Promise((resolve) => worker.once("message", resolve)), done]);
  return {
    starting: () => {
      Atomics.store(go, 0, 1);
      Atomics.notify(go, 0);
    },
    done,
  };
}

describe("src/store/sqlite/database.ts: a transaction that reads, then writes, waits for another connection's write lock", () => {
  let dir: string;
  let path: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "agent-bot-write-tx-"));
    path = join(dir, "bot.sqlite");
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("waits out the lock (the busy timeout) and commits, instead of failing with SQLITE_BUSY", async () => {
    const db: Db = openDatabase(path);
    try {
      db.exec("CREATE TABLE scratch (n INTEGER NOT NULL)");
      const next = db.transaction(() => {
        const last = db.prepare<[], number>("SELECT COALESCE(MAX(n), 0) FROM scratch").pluck().get() ?? 0;
        db.prepare("INSERT INTO scratch (n) VALUES (?)").run(last + 1);
        return last + 1;
      });
      const holder = await holdWriteLock(path, 300);
      holder.starting();
      // It read after the other connection's commit: the lock was waited for at its start.
      expect(next()).toBe(2);
      await holder.done;
      expect(db.prepare("SELECT n FROM scratch ORDER BY n").pluck().all()).toEqual([1, 2]);
    } finally {
      db.close();
    }
  });

  it("opens a new file that another process is writing in rollback mode (two bots starting at once) once its lock is released", async () => {
    // The holder's connection, first on the empty file, writes it in rollback mode: switching to
    // the write-ahead log while it holds its lock was answered SQLITE_BUSY at once, with no busy wait.
    writeFileSync(path, "");
    const holder = await holdWriteLock(path, 300);
    holder.starting();
    const db = openDatabase(path);
    try {
      await holder.done;
      expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
      expect(db.prepare("SELECT MAX(version) FROM schema_migrations").pluck().get()).toBeGreaterThan(0);
    } finally {
      db.close();
    }
  });

  it("keeps .deferred for a transaction that asks for it, and makes a transaction inside another a savepoint", () => {
    const db = openDatabase(path);
    try {
      db.exec("CREATE TABLE scratch (n INTEGER NOT NULL)");
      const insert = db.prepare<[number]>("INSERT INTO scratch (n) VALUES (?)");
      const inner = db.transaction((n: number) => {
        insert.run(n);
        throw new Error("undone");
      });
      const outer = db.transaction(() => {
        insert.run(1);
        expect(() => inner(2)).toThrow("undone");
      });
      outer();
      expect(db.prepare("SELECT n FROM scratch").pluck().all()).toEqual([1]);
      const read = db.transaction(() => db.prepare("SELECT COUNT(*) FROM scratch").pluck().get());
      expect(read.deferred()).toBe(1);
      expect(read.immediate()).toBe(1);
    } finally {
      db.close();
    }
  });

  it("lets the history store forget deleted messages (it reads their turns first) while another connection writes", async () => {
    const store = SqliteStore.open(path);
    try {
      const channel = { platform: "p", workspaceId: "w", channelId: "c" };
      await store.history.add([{ ...channel, messageId: "m1", kind: "message", authorId: "u", authorName: "alice", text: "hello there", time: 1 }]);
      const holder = await holdWriteLock(path, 300);
      holder.starting();
      const forgotten = await store.history.forgetMessages({ ...channel, messageIds: ["m1"] });
      await holder.done;
      expect(forgotten.indexed).toBe(1);
      expect(store.db.prepare("SELECT COUNT(*) FROM history_messages").pluck().get()).toBe(0);
    } finally {
      await store.close();
    }
  });
});

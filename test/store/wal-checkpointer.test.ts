import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { openDatabase } from "../../src/store/sqlite/database.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { WalCheckpointer } from "../../src/store/sqlite/wal-checkpointer.js";

/** Rounds only when asked for (nextRound(true)), so each test decides when the thread checkpoints. */
const ON_REQUEST = { everyMs: 3_600_000 };

describe("SQLite checkpoints from a worker thread", () => {
  let dir: string;
  let path: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "agent-bot-checkpoints-"));
    path = join(dir, "bot.sqlite");
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** `turns` turns' worth of commits: each its own transaction, as the bot writes them. */
  async function writeTurns(store: SqliteStore, turns: number, from = 0): Promise<void> {
    for (let i = from; i < from + turns; i++) {
      const conversation = await store.turns.start({
        id: `t${i}`,
        conversation: { platform: "p", workspaceId: "w", channelId: `c${i % 7}` },
        userId: "u",
        instance: "i",
      });
      await store.turns.finish({
        turnId: `t${i}`,
        end: { status: "answered", outcome: "answer", iterations: 1, usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 } },
        steps: [],
        workspace: { platform: "p", workspaceId: "w" },
        exchange: { conversationId: conversation.id, question: { author: "a", text: `question ${i} ${"x".repeat(500)}` }, answer: `answer ${i}` },
      });
    }
  }

  it("turns the main connection's automatic checkpoint off and copies the whole log into the file in its thread", async () => {
    const store = SqliteStore.open(path, { checkpoints: ON_REQUEST });
    try {
      expect(store.db.pragma("wal_autocheckpoint", { simple: true })).toBe(0);
      await writeTurns(store, 300);
      const round = await store.checkpointer!.nextRound(true);
      expect(round.log).toBeGreaterThan(1_000);
      expect(round.checkpointed).toBe(round.log);
    } finally {
      await store.close();
    }
  });

  it("keeps the log from growing: past the bound a round starts it over, and the file is reused", async () => {
    const store = SqliteStore.open(path, { checkpoints: { ...ON_REQUEST, restartAtFrames: 100 } });
    const walSize = () => statSync(`${path}-wal`).size;
    try {
      await writeTurns(store, 200);
      await store.checkpointer!.nextRound(true);
      const sizeAfterOneRound = walSize();
      for (let round = 1; round <= 4; round++) {
        await writeTurns(store, 200, round * 200);
        const result = await store.checkpointer!.nextRound(true);
        expect(result.checkpointed).toBe(result.log);
      }
      // Five rounds' commits in a log that never started over would take five times the space.
      expect(walSize()).toBeLessThan(sizeAfterOneRound * 1.5);
      expect(store.db.prepare("SELECT COUNT(*) FROM turns").pluck().get()).toBe(1_000);
    } finally {
      await store.close();
    }
  });

  it("leaves a quiet bot's few commits in the log: they append, instead of each starting the log over (an fsync on the main thread)", async () => {
    const store = SqliteStore.open(path, { checkpoints: { everyMs: 5 } });
    try {
      await writeTurns(store, 1);
      // everything copied: the next commit starts the log over, as it should, and holds one turn
      await store.checkpointer!.nextRound(true);
      await writeTurns(store, 1, 1);
      const oneTurn = (await store.checkpointer!.nextRound(true)).log;
      for (let i = 2; i < 12; i++) {
        // several of the thread's rounds between two turns, as between a quiet channel's messages
        await new Promise((resolve) => setTimeout(resolve, 40));
        await writeTurns(store, 1, i);
      }
      // Had a round copied each turn's frames, the next turn would have started the log over.
      expect((await store.checkpointer!.nextRound(true)).log).toBeGreaterThanOrEqual(oneTurn * 9);
    } finally {
      await store.close();
    }
  });

  it("copies the log once it holds the frames a round waits for", async () => {
    const store = SqliteStore.open(path, { checkpoints: { everyMs: 5, checkpointAtFrames: 50 } });
    try {
      await store.checkpointer!.nextRound(true);
      const round = store.checkpointer!.nextRound();
      await writeTurns(store, 30);
      let result = await round;
      // The thread's rounds run while this thread writes: it copied what the log held when its
      // round began (at least the 50 frames it waits for); commits made during the copy stay for the next.
      // A round that met a commit in flight may copy nothing (busy, seen under load); the writes are
      // done by now, so a round asked for at once copies what is left.
      if (result.checkpointed < 50) result = await store.checkpointer!.nextRound(true);
      expect(result.checkpointed).toBeGreaterThanOrEqual(50);
      expect(result.log).toBeGreaterThanOrEqual(result.checkpointed);
    } finally {
      await store.close();
    }
  });

  it("gives up a restart that waits for a reader soon: a writer that waits less than a second still commits, and a later round restarts", async () => {
    const store = SqliteStore.open(path, { checkpoints: { ...ON_REQUEST, restartAtFrames: 1 } });
    // A reader (a console page, another process) that stays on a snapshot older than the log's end:
    // RESTART holds the write lock while it waits for it to leave.
    const reader = new Database(path);
    // No wait of its own: it only sees whether someone holds the write lock.
    const probe = new Database(path, { timeout: 0 });
    try {
      await writeTurns(store, 20);
      reader.exec("BEGIN");
      reader.prepare("SELECT COUNT(*) FROM turns").get();
      await writeTurns(store, 20, 20);
      // A loaded disk, scaled down: the main connection waits half a second where it waits five.
      store.db.pragma("busy_timeout = 500");
      const round = store.checkpointer!.nextRound(true);
      await until(() => !tookWriteLock(probe), "the restart holds the write lock");
      await writeTurns(store, 1, 40);
      reader.exec("COMMIT");
      // The restart gave up (busy) instead of holding the writer off; with the reader gone the next one restarts the log.
      expect((await round).busy).toBe(1);
      const next = await store.checkpointer!.nextRound(true);
      expect(next).toMatchObject({ busy: 0, log: next.checkpointed });
      expect(store.db.prepare("SELECT COUNT(*) FROM turns").pluck().get()).toBe(41);
    } finally {
      if (reader.inTransaction) reader.exec("COMMIT");
      reader.close();
      probe.close();
      await store.close();
    }
  });

  it("stops with the store: its connection is closed, so the last close removes the log", async () => {
    const store = SqliteStore.open(path, { checkpoints: { everyMs: 5 } });
    await writeTurns(store, 50);
    await store.checkpointer!.nextRound(true);
    await store.close();
    await store.close();
    expect(existsSync(`${path}-wal`)).toBe(false);
    expect(existsSync(`${path}-shm`)).toBe(false);
  });

  it("hands checkpoints back to the main connection when its thread dies", async () => {
    const db = openDatabase(path);
    let failure!: (message: string) => void;
    const failed = new Promise<string>((resolve) => (failure = resolve));
    const checkpointer = new WalCheckpointer(db, failure, ON_REQUEST);
    try {
      await checkpointer.nextRound(true);
      expect(db.pragma("wal_autocheckpoint", { simple: true })).toBe(0);
      await checkpointer["worker"]!.terminate();
      expect(await failed).toMatch(/stopped/);
      expect(db.pragma("wal_autocheckpoint", { simple: true })).toBe(1_000);
    } finally {
      await checkpointer.stop();
      db.close();
    }
  });

  it("starts its thread only once the log holds what SQLite would have checkpointed (1,000 pages): none for a bot without turns", async () => {
    const store = SqliteStore.open(path, { checkpoints: { everyMs: 5 } });
    const thread = () => store.checkpointer!["worker"];
    try {
      await writeTurns(store, 5);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(thread()).toBeUndefined();
      expect(store.db.pragma("wal_autocheckpoint", { simple: true })).toBe(0);

      await writeTurns(store, 400, 5);
      await vi.waitFor(() => expect(thread()).toBeDefined(), { timeout: 10_000 });
      // asked for: its own first round may already have copied the log before this line runs
      const round = await store.checkpointer!.nextRound(true);
      expect(round.checkpointed).toBe(round.log);
    } finally {
      await store.close();
    }
  });

  /** A store whose thread ends after 100 ms idle, with 400 turns written and its thread started; failures collected. */
  async function busyStoreEndingWhenIdle() {
    const failures: string[] = [];
    const db = openDatabase(path);
    const store = new SqliteStore(db, new WalCheckpointer(db, (message) => failures.push(message), { everyMs: 5, idleAfterMs: 100 }));
    const thread = () => store.checkpointer!["worker"];
    await writeTurns(store, 400);
    await vi.waitFor(() => expect(thread()).toBeDefined(), { timeout: 10_000 });
    return { store, failures, thread, first: thread() };
  }

  it("ends its thread once the log stays quiet, leaving the log file empty, and starts another when the log grows again", async () => {
    const { store, failures, thread, first } = await busyStoreEndingWhenIdle();
    try {
      // quiet but for a commit now and then (the lease's renewal): the thread copies what is left,
      // empties the log file and ends
      store.db.exec("CREATE TABLE ticks (at INTEGER)");
      const tick = store.db.prepare("INSERT INTO ticks VALUES (?)");
      const ticker = setInterval(() => tick.run(Date.now()), 60);
      try {
        await vi.waitFor(() => expect(thread()).toBeUndefined(), { timeout: 10_000 });
      } finally {
        clearInterval(ticker);
      }
      // emptied: the commits since start a new log (a commit or two of a page each)
      tick.run(Date.now());
      expect(statSync(`${path}-wal`).size).toBeLessThan(64 * 1024);
      expect(store.db.pragma("wal_autocheckpoint", { simple: true })).toBe(0);

      // the turns go on: a new thread starts once the log holds a round's worth, and copies it
      await writeTurns(store, 400, 400);
      await vi.waitFor(() => expect(thread()).toBeDefined(), { timeout: 10_000 });
      expect(thread()).not.toBe(first);
      const round = await store.checkpointer!.nextRound(true);
      expect(round.checkpointed).toBe(round.log);
      expect(failures).toEqual([]);
    } finally {
      await store.close();
    }
    expect(existsSync(`${path}-wal`)).toBe(false);
  });

  it("keeps its thread while commits keep coming, however few frames they add", async () => {
    const { store, failures, thread, first } = await busyStoreEndingWhenIdle();
    try {
      // a turn every 30 ms for 600 ms: far fewer frames than a round copies, but the bot is not idle
      for (let i = 0; i < 20; i++) {
        await writeTurns(store, 1, 400 + i);
        await new Promise((resolve) => setTimeout(resolve, 30));
        expect(thread()).toBe(first);
      }
      await vi.waitFor(() => expect(thread()).toBeUndefined(), { timeout: 10_000 });
      expect(failures).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it("answers a round asked for while its quiet thread ends, from the next thread", async () => {
    const db = openDatabase(path);
    const failures: string[] = [];
    const checkpointer = new WalCheckpointer(db, (message) => failures.push(message), { everyMs: 5, idleAfterMs: 5 });
    try {
      for (let i = 0; i < 20; i++) {
        const round = await checkpointer.nextRound(true);
        expect(round.checkpointed).toBe(round.log);
        await new Promise((resolve) => setTimeout(resolve, i % 5));
      }
      expect(failures).toEqual([]);
    } finally {
      await checkpointer.stop();
      db.close();
    }
  });

  it("starts nothing and raises nothing when its connection is closed under it, log full or not", async () => {
    const db = openDatabase(path);
    const failures: string[] = [];
    const checkpointer = new WalCheckpointer(db, (message) => failures.push(message), { everyMs: 1 });
    db.exec("CREATE TABLE filler (text TEXT)");
    const insert = db.prepare("INSERT INTO filler VALUES (?)");
    for (let i = 0; i < 2_000; i++) insert.run("x".repeat(4_000));
    db.close();
    await new Promise((resolve) => setTimeout(resolve, 50));

    expect(checkpointer["worker"]).toBeUndefined();
    expect(failures).toEqual([]);
    await checkpointer.stop();
  });

  it("has no thread for a database in memory", async () => {
    const store = SqliteStore.open(":memory:");
    expect(store.checkpointer).toBeUndefined();
    await store.close();
  });
});

/** Whether `probe` could take the write lock (released again at once): false while another connection holds it. */
function tookWriteLock(probe: Database.Database): boolean {
  try {
    probe.exec("BEGIN IMMEDIATE");
  } catch (error) {
    if ((error as { code?: string }).code?.startsWith("SQLITE_BUSY")) return false;
    throw error;
  }
  probe.exec("ROLLBACK");
  return true;
}

/** Checks `condition` at every turn of the event loop (a window of a few milliseconds must not be missed), for 10 s at most. */
async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

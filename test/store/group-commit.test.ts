import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import type { TurnClosing } from "../../src/store/turn-records.js";

const workspace = { platform: "p", workspaceId: "w" };
const usage = { promptTokens: 1, completionTokens: 1, totalTokens: 2 };

describe("src/store/sqlite/turn-log.ts: turns that close together share one commit (group commit)", () => {
  let dir: string;
  let path: string;
  let store: SqliteStore;
  let other: Database.Database;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "agent-bot-group-commit-"));
    path = join(dir, "bot.sqlite");
    store = SqliteStore.open(path);
    // Another connection, as another process: its data_version moves once for each commit of the store's.
    other = new Database(path);
  });
  afterEach(async () => {
    other.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const commits = () => other.pragma("data_version", { simple: true }) as number;
  const statusOf = (turnId: string) => other.prepare<[string], string>("SELECT status FROM turns WHERE id = ?").pluck().get(turnId);

  async function started(n: number): Promise<TurnClosing[]> {
    const closings: TurnClosing[] = [];
    for (let i = 0; i < n; i++) {
      const conversation = await store.turns.start({ id: `t${i}`, conversation: { ...workspace, channelId: `c${i}` }, userId: "u", instance: "i" });
      closings.push({
        turnId: `t${i}`,
        end: { status: "answered", outcome: "answer", iterations: 1, usage },
        steps: [],
        workspace,
        exchange: { conversationId: conversation.id, question: { author: "alice", text: `q${i}` }, answer: `a${i}` },
      });
    }
    return closings;
  }

  it("writes the closings asked for in one pass of the event loop in one transaction; each is durable when its finish resolves", async () => {
    const closings = await started(5);
    const before = commits();
    const seenWhenResolved: (string | undefined)[] = [];
    await Promise.all(closings.map((closing) => store.turns.finish(closing).then(() => seenWhenResolved.push(statusOf(closing.turnId)))));
    expect(commits() - before).toBe(1);
    expect(seenWhenResolved).toEqual(Array(5).fill("answered"));
    expect(other.prepare("SELECT COUNT(*) FROM messages").pluck().get()).toBe(10);
    // The memory windows this process caches got every exchange.
    for (let i = 0; i < 5; i++) {
      const window = await store.conversations.window({ ...workspace, channelId: `c${i}` }, 5, 10_000);
      expect(window.map((message) => message.text)).toEqual([`q${i}`, `a${i}`]);
    }
  });

  it("commits a lone closing alone, and a bad closing among others fails only its own turn", async () => {
    const [lone, ...others] = await started(4);
    const before = commits();
    await store.turns.finish(lone!);
    expect(commits() - before).toBe(1);
    const bad = { ...others[1]!, end: { ...others[1]!.end, status: "bogus" as "answered" } };
    const results = await Promise.allSettled([store.turns.finish(others[0]!), store.turns.finish(bad), store.turns.finish(others[2]!)]);
    expect(results.map((result) => result.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(["t0", "t1", "t2", "t3"].map(statusOf)).toEqual(["answered", "answered", "running", "answered"]);
    // The failed turn's exchange was not kept: its window reads as before.
    expect(await store.conversations.window({ ...workspace, channelId: "c2" }, 5, 10_000)).toEqual([]);
    // Written again (the runner retries a failed closing), it commits once.
    await store.turns.finish(others[1]!);
    expect(statusOf("t2")).toBe("answered");
  });

  it("fails every closing of the group at once when the file is busy, and each commits once the lock is free", async () => {
    const closings = await started(3);
    store.db.pragma("busy_timeout = 20");
    other.exec("BEGIN IMMEDIATE");
    const results = await Promise.allSettled(closings.map((closing) => store.turns.finish(closing)));
    expect(results.map((result) => (result.status === "rejected" ? (result.reason as { code?: string }).code : "fulfilled"))).toEqual(
      Array(3).fill("SQLITE_BUSY"),
    );
    other.exec("ROLLBACK");
    await Promise.all(closings.map((closing) => store.turns.finish(closing)));
    expect(["t0", "t1", "t2"].map(statusOf)).toEqual(["answered", "answered", "answered"]);
  });

  it("writes what still waits when the store closes", async () => {
    const [closing] = await started(1);
    const finished = store.turns.finish(closing!);
    await store.close();
    await finished;
    expect(statusOf("t0")).toBe("answered");
  });
});

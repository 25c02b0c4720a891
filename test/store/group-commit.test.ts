import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import type { TurnClosing } from "../../src/store/turn-records.js";

const workspace = { platform: "p", workspaceId: "w" };
const usage = { promptTokens: 1, completionTokens: 1, totalTokens: 2 };

describe("SQLite turn log: turns that close together share one commit (group commit)", () => {
  let dir: string;
  let store: SqliteStore;
  let watcher: Database.Database;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "agent-bot-group-commit-"));
    store = SqliteStore.open(join(dir, "bot.sqlite"));
    // Another connection sees data_version move once per commit of the store's.
    watcher = new Database(join(dir, "bot.sqlite"), { readonly: true });
  });
  afterEach(async () => {
    watcher.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const commits = () => watcher.pragma("data_version", { simple: true }) as number;

  async function started(n: number): Promise<TurnClosing[]> {
    const closings: TurnClosing[] = [];
    for (let i = 0; i < n; i++) {
      const ref = { ...workspace, channelId: `c${i}` };
      const conversation = await store.turns.start({ id: `t${i}`, conversation: ref, userId: "u", instance: "i" });
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

  it("writes the closings asked for in one turn of the event loop in one transaction, each durable when its finish resolves", async () => {
    const closings = await started(5);
    const before = commits();
    await Promise.all(closings.map((closing) => store.turns.finish(closing)));
    expect(commits() - before).toBe(1);
    const rows = watcher.prepare("SELECT id, status FROM turns ORDER BY id").all();
    expect(rows).toEqual(closings.map((closing) => ({ id: closing.turnId, status: "answered" })));
    expect(watcher.prepare("SELECT COUNT(*) FROM messages").pluck().get()).toBe(10);
  });

  it("commits a lone closing alone, and a bad closing among others fails only its own turn", async () => {
    const [lone, ...others] = await started(4);
    const before = commits();
    await store.turns.finish(lone!);
    expect(commits() - before).toBe(1);
    const bad = { ...others[1]!, end: { ...others[1]!.end, status: "bogus" as "answered" } };
    const results = await Promise.allSettled([store.turns.finish(others[0]!), store.turns.finish(bad), store.turns.finish(others[2]!)]);
    expect(results.map((result) => result.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    const statuses = watcher.prepare("SELECT id, status FROM turns ORDER BY id").all();
    expect(statuses).toEqual([
      { id: "t0", status: "answered" },
      { id: "t1", status: "answered" },
      { id: "t2", status: "running" },
      { id: "t3", status: "answered" },
    ]);
    // The failed turn's exchange was not kept: its window reads as before.
    const window = await store.conversations.window({ ...workspace, channelId: "c2" }, 5, 10_000);
    expect(window).toEqual([]);
    expect((await store.conversations.window({ ...workspace, channelId: "c3" }, 5, 10_000)).map((m) => m.text)).toEqual(["q3", "a3"]);
  });
});

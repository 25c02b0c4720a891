import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import type { TurnClosing } from "../../src/store/turn-records.js";
import type { ConversationRef, StoredAttachment } from "../../src/store/types.js";

const workspace = { platform: "p", workspaceId: "w" };
const inChannel = (channelId: string): ConversationRef => ({ ...workspace, channelId });

/** Closes one answered turn in `ref` with this question and answer. */
async function turn(
  store: SqliteStore,
  ref: ConversationRef,
  id: string,
  question: string,
  answer: string,
  attachments?: StoredAttachment[],
  end?: Partial<TurnClosing["end"]>,
) {
  const conversation = await store.turns.start({ id, conversation: ref, userId: "u", instance: "i" });
  await store.turns.finish({
    turnId: id,
    end: { status: "answered", outcome: "answer", iterations: 1, usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 }, ...end },
    steps: [],
    workspace,
    exchange: { conversationId: conversation.id, question: { author: "alice", text: question, attachments }, answer },
  });
}

const texts = async (store: SqliteStore, ref: ConversationRef, exchanges = 5) =>
  (
    await store.conversations.window(
      await store.turns.start({ id: `read-${Math.random()}`, conversation: ref, userId: "u", instance: "i" }),
      exchanges,
      100_000,
    )
  ).map((m) => m.text);

describe("SQLite memory windows cached per conversation", () => {
  let dir: string;
  let path: string;
  const opened: SqliteStore[] = [];
  const open = () => {
    const store = SqliteStore.open(path);
    opened.push(store);
    return store;
  };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "agent-bot-window-cache-"));
    path = join(dir, "bot.sqlite");
  });
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("gives the same windows as the file, through appends past the window's size, files shared and NUL characters", async () => {
    const store = open();
    const ref = inChannel("c");
    for (let i = 0; i < 12; i++) {
      const files = i % 3 === 0 ? [{ name: `f${i}.txt`, type: "text/plain", size: i }] : undefined;
      await turn(store, ref, `t${i}`, `question ${i}\u0000`, `answer ${i}`, files);
      for (const exchanges of [1, 3, 5]) {
        const cached = await store.conversations.window(ref, exchanges, 100_000);
        const fresh = SqliteStore.open(path);
        try {
          expect(cached).toEqual(await fresh.conversations.window(ref, exchanges, 100_000));
        } finally {
          await fresh.close();
        }
      }
    }
    expect(await texts(store, ref, 2)).toEqual(["question 10", "answer 10", "question 11", "answer 11"]);
  });

  it("sees what another process wrote or cleared at once", async () => {
    const [a, b] = [open(), open()];
    const ref = inChannel("c");
    await turn(a, ref, "t1", "q1", "a1");
    expect(await texts(a, ref)).toEqual(["q1", "a1"]);
    await turn(b, ref, "t2", "q2", "a2");
    expect(await texts(a, ref)).toEqual(["q1", "a1", "q2", "a2"]);
    await turn(a, ref, "t3", "q3", "a3");
    expect(await texts(b, ref)).toEqual(["q1", "a1", "q2", "a2", "q3", "a3"]);
    await b.conversations.clear(ref);
    expect(await texts(a, ref)).toEqual([]);
    await turn(a, ref, "t4", "q4", "a4");
    expect(await texts(a, ref)).toEqual(["q4", "a4"]);
    expect(await texts(b, ref)).toEqual(["q4", "a4"]);
  });

  it("forgets on clear, and keeps nothing of a closing that rolled back", async () => {
    const store = open();
    const [ref, other] = [inChannel("c"), inChannel("d")];
    await turn(store, ref, "t1", "q1", "a1");
    expect(await texts(store, ref)).toEqual(["q1", "a1"]);
    // The exchange is written, then the turn's row refuses the status: the whole closing rolls back.
    await expect(turn(store, ref, "t2", "q2", "a2", undefined, { status: "bogus" as "answered" })).rejects.toThrow(/CHECK/);
    await turn(store, other, "t3", "q3", "a3");
    expect(await texts(store, ref)).toEqual(["q1", "a1"]);
    await store.conversations.clear(ref);
    expect(await texts(store, ref)).toEqual([]);
    expect(await texts(store, other)).toEqual(["q3", "a3"]);
  });

  it("answers the summary's read of what left the window from the cache, the same rows as the file gives, and reads the file when it cannot tell", async () => {
    const [store, fresh] = [open(), open()];
    const ref = inChannel("c");
    const conversation = await store.conversations.open(ref);
    const read = (s: SqliteStore, coveredTo: number, limit = 100) => s.summaries.dropped(conversation, coveredTo, 4, limit);
    for (let n = 1; n <= 9; n++) {
      await turn(store, ref, `t${n}`, `q${n}`, `a${n}`);
      // The turn's read of its window fills the cache, as a turn does before its answer.
      await store.conversations.window(conversation, 2, 100_000);
      for (const coveredTo of [0, 3, 2 * n - 4]) {
        const cached = await read(store, coveredTo);
        expect(cached).toEqual(await read(fresh, coveredTo));
        expect(await read(store, coveredTo, 2)).toEqual(cached.slice(0, 2));
      }
    }
    const rows = await read(store, 0);
    expect(rows.map((m) => m.text)).toEqual(["q1", "a1", "q2", "a2", "q3", "a3", "q4", "a4", "q5", "a5", "q6", "a6", "q7", "a7"]);
    expect(rows[0]).toMatchObject({ role: "user", author: "alice", sourceId: null });
    expect(rows[0]!.id).toBeLessThan(rows[1]!.id);
    // Past what the cache holds (its window's rows and 24 more), the file answers: still every row.
    for (let n = 10; n <= 30; n++) await turn(store, ref, `t${n}`, `q${n}`, `a${n}`);
    await store.conversations.window(conversation, 2, 100_000);
    expect((await read(store, 0)).map((m) => m.text)).toEqual((await read(fresh, 0)).map((m) => m.text));
    expect(await read(store, 0)).toHaveLength(56);
  });

  it("answers a conversation's summary row from the cache until it is written, here or by another process", async () => {
    const [store, other] = [open(), open()];
    const { id } = await store.conversations.open(inChannel("c"));
    const update = (summary: string) => ({ summary, identifiers: [], coveredTo: 2, coversFrom: 1, coversUntil: 2, updatedAt: 3 });
    const usage = { conversationId: id, workspace: inChannel("c"), channelId: "c", model: "m", ok: true, promptTokens: 1, completionTokens: 1, durationMs: 1 };
    const first = await store.summaries.get(id);
    // The same row again, not read from the file: the prompt of every turn reads it.
    expect(await store.summaries.get(id)).toBe(first);
    expect(await store.summaries.claim(id, 0, Date.now(), 60_000)).toBe(true);
    expect(await store.summaries.save(id, 0, update("by this process"), usage)).toBe(true);
    expect(await store.summaries.get(id)).toMatchObject({ version: 1, summary: "by this process" });

    expect(await other.summaries.save(id, 1, update("by another process"), usage)).toBe(true);
    expect(await store.summaries.get(id)).toMatchObject({ version: 2, summary: "by another process" });
    expect(await store.summaries.failed(id, 2, 12_345, usage)).toBe(true);
    expect(await store.summaries.get(id)).toMatchObject({ version: 3, failures: 1, retryAt: 12_345 });
    await store.summaries.reset(id, 7);
    expect(await store.summaries.get(id)).toMatchObject({ version: 4, summary: "", coveredTo: 7 });
  });

  it("holds a bounded number of conversations", async () => {
    const store = open();
    for (let i = 0; i < 1_100; i++) await store.conversations.window(inChannel(`c${i}`), 5, 1_000);
    expect(store.conversations.cache["entries"].size).toBeLessThanOrEqual(1_000);
  });
});

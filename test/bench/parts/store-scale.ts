import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SqliteStore } from "../../../src/store/sqlite/sqlite-store.js";
import type { ConversationRef } from "../../../src/store/types.js";
import { median, quantile, round, toMb } from "../support/stats.js";
import { writeTurn } from "../support/turn-writes.js";
import type { BenchOptions, BenchPart } from "../types.js";

const SIZES = {
  full: {
    big: { conversations: 10_000, messagesEach: 100 },
    small: { conversations: 1_000, messagesEach: 10 },
    reads: 20_000,
    appends: 5_000,
  },
  quick: {
    big: { conversations: 100, messagesEach: 100 },
    small: { conversations: 100, messagesEach: 10 },
    reads: 1_000,
    appends: 200,
  },
};
/** The defaults of MEMORY_WINDOW and MEMORY_TOKEN_BUDGET. */
const WINDOW_EXCHANGES = 5;
const TOKEN_BUDGET = 3_000;
const FILL_BATCH = 50_000;
const GOAL_P99_MS = 0.2;

type Shape = (typeof SIZES)["full"]["big"];

/** Part 2: the SQLite memory at a million messages: filling, window reads, appends, size on disk. */
export const storeScalePart: BenchPart = {
  id: "store",
  title: "2. Memory store at scale (real schema and MemoryStore, SQLite file)",
  async run(options) {
    const size = options.quick ? SIZES.quick : SIZES.full;
    const small = await withStore(async (store) => {
      fill(store, size.small, options);
      return { messages: total(size.small), reads: await timeReads(store, size.small.conversations, size.reads) };
    });
    const big = await withStore(async (store, path) => {
      const fillMs = fill(store, size.big, options);
      const reads = await timeReads(store, size.big.conversations, size.reads);
      options.note(`store: appending ${size.appends} exchanges, with and without tool steps`);
      const appendsOnly = await timeAppends(store, size.big.conversations, size.appends, 0);
      const turnWrites = await timeAppends(store, size.big.conversations, size.appends, 2);
      store.db.pragma("wal_checkpoint(TRUNCATE)");
      const bytes = statSync(path).size;
      return { messages: total(size.big), messagesAtEnd: total(size.big) + 4 * size.appends, fillMs, reads, appendsOnly, turnWrites, bytes };
    });
    const p99 = round(big.reads.p99Ms);
    const fillRate = total(size.big) / (big.fillMs / 1000);
    return {
      figures: [
        {
          key: "store_fill_s",
          label: `fill ${total(size.big).toLocaleString("en")} messages / ${size.big.conversations.toLocaleString("en")} conversations`,
          value: round(big.fillMs / 1000),
          unit: "s",
        },
        { key: "store_fill_messages_per_s", label: "fill rate", value: round(fillRate), unit: "msg/s" },
        { key: "window_read_p50_ms", label: `window read p50 at ${big.messages.toLocaleString("en")} messages`, value: round(big.reads.p50Ms), unit: "ms" },
        {
          key: "window_read_p99_ms",
          label: `window read p99 at ${big.messages.toLocaleString("en")} messages`,
          value: p99,
          unit: "ms",
          goal: `< ${GOAL_P99_MS}`,
          met: p99 < GOAL_P99_MS,
        },
        {
          key: "window_read_p50_ms_small",
          label: `window read p50 at ${small.messages.toLocaleString("en")} messages`,
          value: round(small.reads.p50Ms),
          unit: "ms",
        },
        {
          key: "window_read_p99_ms_small",
          label: `window read p99 at ${small.messages.toLocaleString("en")} messages`,
          value: round(small.reads.p99Ms),
          unit: "ms",
        },
        {
          key: "window_read_growth",
          label: `p50 read at ${shortCount(big.messages)} / at ${shortCount(small.messages)}`,
          value: round(big.reads.p50Ms / small.reads.p50Ms),
        },
        { key: "append_exchanges_per_s", label: "append: turn row + exchange, per second", value: round(big.appendsOnly.perS) },
        { key: "append_p99_ms", label: "append p99", value: round(big.appendsOnly.p99Ms), unit: "ms" },
        { key: "turn_writes_per_s", label: "all writes of a 2-tool turn, per second", value: round(big.turnWrites.perS) },
        { key: "store_db_mb", label: `database size at ${shortCount(big.messagesAtEnd)} messages`, value: toMb(big.bytes), unit: "MB" },
      ],
      detail: { sizes: size, small, big: { ...big, bytesPerMessage: round(big.bytes / big.messagesAtEnd) } },
    };
  },
};

async function withStore<T>(work: (store: SqliteStore, path: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), "agent-bot-bench-store-"));
  const path = join(dir, "bot.sqlite");
  const store = SqliteStore.open(path);
  try {
    return await work(store, path);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const total = (shape: Shape) => shape.conversations * shape.messagesEach;
const shortCount = (n: number) => (n >= 1_000_000 ? `${n / 1_000_000}M` : n >= 1_000 ? `${Math.round(n / 1_000)}k` : String(n));
const conversationRef = (index: number): ConversationRef => ({ platform: "bench", workspaceId: "w1", channelId: `channel-${index}` });

/**
 * Creates the conversations through MemoryStore, then inserts the messages with one prepared
 * statement in big transactions, conversations interleaved as in real traffic (so a window's rows
 * are spread over the file, not neighbours). Returns the time the messages took.
 */
function fill(store: SqliteStore, shape: Shape, options: BenchOptions): number {
  const ids = store.db.transaction(() => Array.from({ length: shape.conversations }, (_, i) => store.conversations.openNow(conversationRef(i)).id))();
  const insert = store.db.prepare(`INSERT INTO messages (conversation_id, turn_id, role, author, text, created_at) VALUES (?, NULL, ?, ?, ?, ?)`);
  const questions = Array.from({ length: 16 }, (_, i) => `Question ${i}: ${"what about this and that? ".repeat(2 + (i % 5))}`);
  const answers = Array.from({ length: 16 }, (_, i) => `Answer ${i}: ${"here is a **Markdown** answer with a figure, 49.07. ".repeat(2 + (i % 9))}`);
  const rows = total(shape);
  // The page cache is raised for the fill only (setup, not what is measured), then put back.
  const cacheSize = store.db.pragma("cache_size", { simple: true });
  store.db.pragma("cache_size = -262144");
  const started = performance.now();
  const insertBatch = store.db.transaction((from: number, to: number) => {
    const now = Date.now();
    for (let row = from; row < to; row++) {
      const exchange = Math.floor(row / 2);
      const conversation = ids[exchange % shape.conversations]!;
      if (row % 2 === 0) insert.run(conversation, "user", "alice", questions[exchange % 16]!, now);
      else insert.run(conversation, "assistant", null, answers[exchange % 16]!, now);
    }
  });
  for (let from = 0; from < rows; from += FILL_BATCH) {
    insertBatch(from, Math.min(rows, from + FILL_BATCH));
    if (rows > FILL_BATCH * 4 && (from / FILL_BATCH) % 4 === 3)
      options.note(`store: filled ${(from + FILL_BATCH).toLocaleString("en")} / ${rows.toLocaleString("en")}`);
  }
  const fillMs = performance.now() - started;
  store.db.pragma(`cache_size = ${cacheSize}`);
  store.db.pragma("wal_checkpoint(TRUNCATE)");
  return fillMs;
}

/** Times MemoryStore.window — what every turn reads — for random conversations, after a warm-up pass. */
async function timeReads(store: SqliteStore, conversations: number, reads: number) {
  const refs = Array.from({ length: conversations }, (_, i) => conversationRef(i));
  const pick = () => refs[Math.floor(Math.random() * conversations)]!;
  for (let i = 0; i < Math.min(reads, 2_000); i++) await store.conversations.window(pick(), WINDOW_EXCHANGES, TOKEN_BUDGET);
  const latencies: number[] = [];
  let rows = 0;
  for (let i = 0; i < reads; i++) {
    const ref = pick();
    const t0 = performance.now();
    rows += (await store.conversations.window(ref, WINDOW_EXCHANGES, TOKEN_BUDGET)).length;
    latencies.push(performance.now() - t0);
  }
  // Every read must return a full window, whatever the history: the same work at any size.
  if (rows !== reads * WINDOW_EXCHANGES * 2) throw new Error(`the window reads returned ${rows / reads} messages on average, not ${WINDOW_EXCHANGES * 2}`);
  return { reads, messagesPerRead: rows / reads, p50Ms: median(latencies), p99Ms: quantile(latencies, 0.99), maxMs: Math.max(...latencies) };
}

/**
 * Times the store writes of a turn as the runner makes them: the turn row when it starts, then
 * the closing unit of work with `steps` tool steps, the exchange and the turn's outcome.
 */
async function timeAppends(store: SqliteStore, conversations: number, count: number, steps: number) {
  const latencies: number[] = [];
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    await writeTurn(store, conversationRef(Math.floor(Math.random() * conversations)), steps);
    latencies.push(performance.now() - t0);
  }
  const ms = performance.now() - started;
  return { count, steps, perS: (count * 1000) / ms, p50Ms: median(latencies), p99Ms: quantile(latencies, 0.99) };
}

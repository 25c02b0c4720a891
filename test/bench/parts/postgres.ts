import pg from "pg";
import { silentLogger } from "../../../src/log.js";
import { PostgresStore } from "../../../src/store/postgres/postgres-store.js";
import type { ConversationRef } from "../../../src/store/types.js";
import { createTestDatabase, postgresAvailability } from "../../support/postgres.js";
import { median, quantile, round, toMb } from "../support/stats.js";
import { writeTurn } from "../support/turn-writes.js";
import type { BenchOptions, BenchPart, Figure } from "../types.js";
import { measureScaling, SCALING_GOAL } from "./postgres-scaling.js";

const SIZES = {
  full: { conversations: 10_000, messagesEach: 100, reads: 20_000, writes: 2_000, concurrentWriters: 16 },
  quick: { conversations: 100, messagesEach: 100, reads: 500, writes: 100, concurrentWriters: 4 },
};
/** The defaults of MEMORY_WINDOW and MEMORY_TOKEN_BUDGET, as in part 2. */
const WINDOW_EXCHANGES = 5;
const TOKEN_BUDGET = 3_000;
const FILL_BATCH = 100_000;

type Size = (typeof SIZES)["full"];

/**
 * Part 8: the PostgreSQL store (this machine's server, or BENCH_POSTGRES_URL's): the memory window
 * at a million messages, the writes of a turn, and 1 against 3 bot processes sharing the database
 * with a model taking 50 ms a call. Runs in a database of its own, dropped at the end. Without a
 * server its figures are n/a, and it says why.
 */
export const postgresPart: BenchPart = {
  id: "postgres",
  title: "8. PostgreSQL store: window reads, turn writes, several processes",
  async run(options) {
    const availability = await postgresAvailability();
    if (!availability.available) {
      options.note(`postgres: not run, ${availability.reason}`);
      return { figures: unmeasured(), detail: { notRun: availability.reason } };
    }
    const size = options.quick ? SIZES.quick : SIZES.full;
    const database = await createTestDatabase("agent_bot_bench");
    try {
      const store = await PostgresStore.open({ url: database.url, poolSize: size.concurrentWriters, timeoutMs: 30_000, logger: silentLogger() });
      let storeFigures;
      try {
        const fillMs = await fill(database.url, size, options);
        const reads = await timeReads(store, size.conversations, size.reads);
        options.note(`postgres: writing ${size.writes} turns with two tool steps, one at a time and ${size.concurrentWriters} at once`);
        const sequential = await timeWrites(store, size, 1);
        const concurrent = await timeWrites(store, size, size.concurrentWriters);
        storeFigures = { fillMs, reads, sequential, concurrent };
      } finally {
        await store.close();
      }
      const scaling = await measureScaling(database.url, options);
      const messages = size.conversations * size.messagesEach;
      const p99 = round(storeFigures.reads.p99Ms);
      const factor = round(scaling.factor);
      return {
        figures: [
          {
            key: "pg_fill_messages_per_s",
            label: `fill ${messages.toLocaleString("en")} messages (server-side)`,
            value: round(messages / (storeFigures.fillMs / 1000)),
            unit: "msg/s",
          },
          {
            key: "pg_window_read_p50_ms",
            label: `window read p50 at ${messages.toLocaleString("en")} messages`,
            value: round(storeFigures.reads.p50Ms),
            unit: "ms",
          },
          { key: "pg_window_read_p99_ms", label: `window read p99 at ${messages.toLocaleString("en")} messages`, value: p99, unit: "ms" },
          { key: "pg_turn_writes_per_s", label: "all writes of a 2-tool turn, per second, one at a time", value: round(storeFigures.sequential.perS) },
          { key: "pg_turn_write_p99_ms", label: "turn writes p99, one at a time", value: round(storeFigures.sequential.p99Ms), unit: "ms" },
          {
            key: "pg_turn_writes_per_s_concurrent",
            label: `all writes of a 2-tool turn, per second, ${size.concurrentWriters} at once`,
            value: round(storeFigures.concurrent.perS),
          },
          {
            key: "pg_turns_per_s_1_process",
            label: `turns/s, 1 process, ${scaling.conversationsEach} conversations, model 50 ms a call (ideal ${round(scaling.idealTurnsPerSEach)})`,
            value: round(scaling.oneTurnsPerS),
          },
          {
            key: "pg_turns_per_s_3_processes",
            label: `turns/s, 3 processes, ${scaling.conversationsEach} conversations each`,
            value: round(scaling.threeTurnsPerS),
          },
          {
            key: "pg_scaling_3_processes",
            label: "3 processes / 1 process (median of rounds)",
            value: factor,
            goal: `≥ ${SCALING_GOAL}`,
            met: factor >= SCALING_GOAL,
          },
        ],
        detail: { sizes: size, ...storeFigures, scaling },
      };
    } finally {
      await database.drop();
    }
  },
};

function unmeasured(): Figure[] {
  return ["pg_window_read_p50_ms", "pg_window_read_p99_ms", "pg_turn_writes_per_s", "pg_scaling_3_processes"].map((key) => ({
    key,
    label: key.replaceAll("_", " "),
    value: null,
  }));
}

const conversationRef = (index: number): ConversationRef => ({ platform: "bench", workspaceId: "w1", channelId: `channel-${index}` });

/**
 * The conversations, then the messages, written by the server itself (generate_series) in big
 * statements, conversations interleaved as in real traffic so a window's rows are spread over the
 * table. Texts of the same lengths as part 2's. Setup, not what is measured.
 */
async function fill(url: string, size: Size, options: BenchOptions): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(
      `INSERT INTO conversations (platform, workspace_id, channel_id, thread_id, created_at)
       SELECT 'bench', 'w1', 'channel-' || i, '', 0 FROM generate_series(0, $1 - 1) AS i ORDER BY i`,
      [size.conversations],
    );
    const rows = size.conversations * size.messagesEach;
    const started = performance.now();
    for (let from = 0; from < rows; from += FILL_BATCH) {
      await client.query(
        `INSERT INTO messages (conversation_id, turn_id, role, author, text, created_at)
         SELECT (r / 2) % $3 + 1, NULL,
           CASE WHEN r % 2 = 0 THEN 'user' ELSE 'assistant' END,
           CASE WHEN r % 2 = 0 THEN 'alice' END,
           CASE WHEN r % 2 = 0 THEN 'Question ' || (r / 2) % 16 || ': ' || repeat('what about this and that? ', (2 + (r / 2) % 5)::int)
                ELSE 'Answer ' || (r / 2) % 16 || ': ' || repeat('here is a **Markdown** answer with a figure, 49.07. ', (2 + (r / 2) % 9)::int) END,
           0
         FROM generate_series($1::bigint, $2::bigint - 1) AS r ORDER BY r`,
        [from, Math.min(rows, from + FILL_BATCH), size.conversations],
      );
      if (rows > FILL_BATCH * 4 && (from / FILL_BATCH) % 4 === 3)
        options.note(`postgres: filled ${(from + FILL_BATCH).toLocaleString("en")} / ${rows.toLocaleString("en")}`);
    }
    const fillMs = performance.now() - started;
    await client.query("VACUUM ANALYZE messages");
    await client.query("VACUUM ANALYZE conversations");
    const { rows: sizeRows } = await client.query<{ bytes: string }>(`SELECT pg_database_size(current_database()) AS bytes`);
    options.note(`postgres: ${rows.toLocaleString("en")} messages, database ${toMb(Number(sizeRows[0]!.bytes))} MB`);
    return fillMs;
  } finally {
    await client.end();
  }
}

/** Times the window read every turn makes, for random conversations, after a warm-up, one at a time. */
async function timeReads(store: PostgresStore, conversations: number, reads: number) {
  const pick = () => conversationRef(Math.floor(Math.random() * conversations));
  for (let i = 0; i < Math.min(reads, 2_000); i++) await store.conversations.window(pick(), WINDOW_EXCHANGES, TOKEN_BUDGET);
  const latencies: number[] = [];
  let rows = 0;
  for (let i = 0; i < reads; i++) {
    const ref = pick();
    const t0 = performance.now();
    rows += (await store.conversations.window(ref, WINDOW_EXCHANGES, TOKEN_BUDGET)).length;
    latencies.push(performance.now() - t0);
  }
  if (rows !== reads * WINDOW_EXCHANGES * 2) throw new Error(`the window reads returned ${rows / reads} messages on average, not ${WINDOW_EXCHANGES * 2}`);
  return { reads, p50Ms: median(latencies), p99Ms: quantile(latencies, 0.99), maxMs: Math.max(...latencies) };
}

/** The writes of answered turns with two tool steps (turn row, then the closing transaction), `writers` at a time. */
async function timeWrites(store: PostgresStore, size: Size, writers: number) {
  const latencies: number[] = [];
  const perWriter = Math.ceil(size.writes / writers);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: writers }, async () => {
      for (let i = 0; i < perWriter; i++) {
        const t0 = performance.now();
        await writeTurn(store, conversationRef(Math.floor(Math.random() * size.conversations)), 2);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const ms = performance.now() - started;
  return { writers, turns: latencies.length, perS: (latencies.length * 1000) / ms, p50Ms: median(latencies), p99Ms: quantile(latencies, 0.99) };
}

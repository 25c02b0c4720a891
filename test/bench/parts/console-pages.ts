import { mkdtempSync, rmSync } from "node:fs";
import { devNull, tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../../../src/app.js";
import { loadConfig } from "../../../src/config/env.js";
import { createLogger } from "../../../src/log.js";
import { startConsoleFor } from "../../../src/start-console.js";
import { SqliteStore } from "../../../src/store/sqlite/sqlite-store.js";
import { addToRollup, TURNS_WITH_CONVERSATIONS } from "../../../src/store/usage-rollup-sql.js";
import { freePort } from "../../support/free-port.js";
import { quantile, round } from "../support/stats.js";
import type { BenchOptions, BenchPart, Figure } from "../types.js";

/** BENCH_CONSOLE_TURNS overrides the full size (1,000,000 turns). */
const FULL_TURNS = Number(process.env.BENCH_CONSOLE_TURNS ?? 1_000_000);
const SIZES = { full: { turns: FULL_TURNS, requests: 30 }, quick: { turns: 5_000, requests: 5 } };
const PAGE_P99_GOAL_MS = 100;
const WORKSPACES = 4;
const CHANNELS = 40;
const USERS = 200;
const DAYS = 90;
const DAY_MS = 24 * 60 * 60 * 1000;
const TOKEN = "bench-console-token";
const MODELS = ["gpt-4o-mini", "gpt-4o", "claude-sonnet-4-5"];
const TOOLS = ["calculator", "wikipedia", "web_search"];

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

/**
 * Fills the database as months of use would: most turns in one big workspace, every turn with its
 * question and answer, a third with a tool step, a few failed; times spread over 90 days; and
 * the daily usage rollup of those turns.
 */
function fill(store: SqliteStore, turns: number, options: BenchOptions): { sampleTurn: string } {
  const db = store.db;
  const next = random(11);
  const now = Date.now();
  const conversation = db.prepare(`INSERT INTO conversations (platform, workspace_id, channel_id, thread_id, created_at) VALUES ('bench', ?, ?, '', ?)`);
  const ids: number[][] = [];
  for (let w = 0; w < WORKSPACES; w++) {
    ids.push([]);
    for (let c = 0; c < CHANNELS; c++) ids[w]!.push(Number(conversation.run(`w${w}`, `C${c}`, now - DAYS * DAY_MS).lastInsertRowid));
  }
  const turn = db.prepare(
    `INSERT INTO turns (id, conversation_id, user_id, status, outcome, started_at, ended_at, duration_ms, iterations, prompt_tokens, completion_tokens, total_tokens, instance, model, channel_id, kind)
     VALUES (?, ?, ?, ?, ?, ?, ?, 900, 2, ?, ?, ?, 'bench', ?, ?, 'turn')`,
  );
  const message = db.prepare(`INSERT INTO messages (conversation_id, turn_id, role, author, text, created_at) VALUES (?, ?, ?, ?, ?, ?)`);
  const step = db.prepare(
    `INSERT INTO turn_steps (turn_id, seq, tool, input, output, started_at, duration_ms) VALUES (?, 1, ?, '{"q":"x"}', 'a result', ?, 40)`,
  );
  let sampleTurn = "";
  const batch = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      // 70% in w0, the rest spread
      const w = next() < 0.7 ? 0 : 1 + Math.floor(next() * (WORKSPACES - 1));
      const c = Math.floor(next() * CHANNELS);
      const id = `t${i.toString(36).padStart(8, "0")}`;
      const startedAt = now - Math.floor((1 - i / turns) * DAYS * DAY_MS);
      const roll = next();
      const status = roll < 0.04 ? "failed" : roll < 0.05 ? "interrupted" : "answered";
      const input = 200 + Math.floor(next() * 2_000);
      const output = 20 + Math.floor(next() * 400);
      const conversationId = ids[w]![c]!;
      turn.run(
        ...[id, conversationId, `U${Math.floor(next() * USERS)}`, status, status === "answered" ? "answer" : "llm_error", startedAt, startedAt + 900],
        ...[input, output, input + output, MODELS[Math.floor(next() * MODELS.length)]!, `C${c}`],
      );
      message.run(conversationId, id, "user", "someone", `question number ${i}`, startedAt);
      if (status === "answered") message.run(conversationId, id, "assistant", null, `answer number ${i}`, startedAt + 900);
      if (i % 3 === 0) step.run(id, TOOLS[Math.floor(i / 3) % TOOLS.length]!, startedAt + 10);
      if (i === Math.floor(turns / 2)) sampleTurn = id;
    }
  });
  const BATCH = 10_000;
  for (let from = 0; from < turns; from += BATCH) {
    batch(from, Math.min(turns, from + BATCH));
    if (from % 200_000 === 0 && from > 0) options.note(`console: ${from.toLocaleString("en")} turns written`);
  }
  // The daily usage rollup a turn's close writes, built at once from the turns written here (as migration 020 does)
  const rollup = addToRollup(TURNS_WITH_CONVERSATIONS, "t.status <> 'running'");
  db.exec(`${rollup.channels}; ${rollup.users}`);
  db.pragma("optimize");
  return { sampleTurn };
}

/**
 * Part 14: the operator's console at a million turns (issue 28): each page's server time (a GET
 * over loopback, HTTP included), p50 and p99 over repeated loads; the goal is every page ≤ 100 ms.
 */
export const consolePagesPart: BenchPart = {
  id: "console",
  title: "14. Operator's console: page times at 1,000,000 turns (SQLite)",
  async run(options) {
    const size = options.quick ? SIZES.quick : SIZES.full;
    const dir = mkdtempSync(join(tmpdir(), "agent-bot-bench-console-"));
    const path = join(dir, "bot.sqlite");
    const store = SqliteStore.open(path);
    options.note(`console: writing ${size.turns.toLocaleString("en")} turns`);
    const { sampleTurn } = fill(store, size.turns, options);
    const port = await freePort();
    const config = loadConfig({ OPENAI_BASE_URL: "http://127.0.0.1:9/v1", DATABASE_PATH: path, CONSOLE_PORT: String(port), CONSOLE_TOKEN: TOKEN });
    const app = await createApp(config, createLogger("silent", devNull), { store });
    const server = await startConsoleFor(app, () => []);
    const from = new Date(Date.now() - 80 * DAY_MS).toISOString().slice(0, 10);
    const pages = {
      overview: "/",
      usage: "/usage?workspace=bench:w0",
      turns: "/turns",
      turns_by_channel: "/turns?workspace=bench:w0&channel=C3",
      turns_by_user: "/turns?workspace=bench:w0&user=U7",
      turns_with_tool: "/turns?tool=wikipedia",
      turns_failed_with_tool: "/turns?outcome=failed&tool=wikipedia",
      turns_one_day: `/turns?from=${from}&to=${from}`,
      turn: `/turns/${sampleTurn}`,
      approvals: "/approvals",
      settings: "/settings?workspace=bench:w0&channel=C1",
      schedules: "/schedules?workspace=bench:w0",
    };
    const detail: Record<string, unknown> = { turns: size.turns, requestsPerPage: size.requests };
    let worst = 0;
    try {
      for (const [name, page] of Object.entries(pages)) {
        const samples: number[] = [];
        for (let i = 0; i < size.requests + 3; i++) {
          const started = performance.now();
          const response = await fetch(`http://127.0.0.1:${port}${page}`, { headers: { authorization: `Bearer ${TOKEN}` } });
          await response.text();
          if (response.status !== 200) throw new Error(`the console answered ${response.status} for ${page}`);
          // the first loads warm the caches (statements, pages), as a console in use has them
          if (i >= 3) samples.push(performance.now() - started);
        }
        const p99 = round(quantile(samples, 0.99));
        detail[name] = { p50Ms: round(quantile(samples, 0.5)), p99Ms: p99 };
        worst = Math.max(worst, p99);
        options.note(`console: ${name} p99 ${p99} ms`);
      }
    } finally {
      await server.close();
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    }
    const figures: Figure[] = [
      {
        key: "console_page_p99_ms",
        label: `Slowest console page, p99, at ${size.turns.toLocaleString("en")} turns`,
        value: round(worst),
        unit: "ms",
        goal: `≤ ${PAGE_P99_GOAL_MS}`,
        met: worst <= PAGE_P99_GOAL_MS,
      },
    ];
    return { figures, detail };
  },
};

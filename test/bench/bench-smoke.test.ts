import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { TSX_LOADER } from "../support/child-bot.js";
import { postgresAvailability } from "../support/postgres.js";
const RUN = fileURLToPath(new URL("./run.ts", import.meta.url));

/** Runs the benchmark as `npm run bench -- ...args` would, in its own process. */
function bench(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ["--import", TSX_LOADER, RUN, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

const positive = (value: unknown) => typeof value === "number" && Number.isFinite(value) && value > 0;
const availability = await postgresAvailability();
let quickRun: ReturnType<typeof bench> | undefined;
/** One quick run with the JSON report, shared by the tests that read it. */
const quickJson = () => (quickRun ??= bench(["--quick", "--json"]));

describe("the benchmark, run small", () => {
  it("prints one JSON object with every required figure and nothing else on stdout", async () => {
    const { code, stdout, stderr } = await quickJson();

    expect(code, stderr).toBe(0);
    expect(stdout.trim().split("\n")).toHaveLength(1);
    const report = JSON.parse(stdout);
    expect(report.mode).toBe("quick");
    for (const key of [
      "overhead_ratio_sequential",
      "overhead_ratio_concurrent",
      "concurrency_ratio_to_floor",
      "cpu_ratio_to_default_openai_loop",
      "window_read_p99_ms",
      "concurrency_efficiency",
      "rss_mb_after_startup",
      "startup_ms_terminal",
    ]) {
      expect(positive(report[key]), `${key} = ${report[key]}`).toBe(true);
    }
    // CPU over the floor is a difference: a few quick turns may put it below 0 in noise
    expect(Number.isFinite(report.cpu_us_per_turn_over_floor)).toBe(true);
    for (const key of ["cpu_us_per_turn_bot", "cpu_us_per_turn_floor", "cpu_us_per_turn_default_openai_loop"]) {
      expect(positive(report.figures[key]), `${key} = ${report.figures[key]}`).toBe(true);
    }
    // the bot, the floor and the default loop asked the model the same thing (the bench fails otherwise)
    expect(report.request_bodies_identical).toBe(1);
    expect(report.parts.overhead.requestBodiesCompared.bodies).toBe(6);
    // quick figures are named for the turns they ran, never for the full run's 10,000
    expect(positive(report.figures.rss_mb_after_160_turns)).toBe(true);
    expect(JSON.stringify(report)).not.toContain("10k_turns");
    // part 4 went through discord.js and Bolt of a bot started as production starts it (an overhead may be below 0 in noise)
    for (const platform of ["discord", "slack"]) {
      expect(Number.isFinite(report[`e2e_overhead_p50_ms_${platform}`])).toBe(true);
      expect(Number.isFinite(report[`e2e_overhead_p99_ms_${platform}`])).toBe(true);
      expect(positive(report.figures[`e2e_latency_p50_ms_${platform}`])).toBe(true);
    }
    expect(positive(report.figures.slack_events_per_s)).toBe(true);
    expect(report.concurrency_efficiency).toBeLessThanOrEqual(1.2);
    expect(report.figures.queue_keys_left).toBe(0);
    expect(report.figures.queue_keys_left_in_process).toBe(0);
    expect(report.figures.window_read_p99_ms).toBeGreaterThanOrEqual(report.figures.window_read_p50_ms);
    expect(Object.keys(report.parts)).toEqual([
      "overhead",
      "store",
      "concurrency",
      "e2e",
      "footprint",
      "parser",
      "stream",
      "postgres",
      "discord-footprint",
      "budgets",
      "history",
      "metrics",
      "streamed",
      "console",
      "tracing",
      "started-streamed",
    ]);
    // part 15 timed the tracer's spans of a turn against the same loop without one
    expect(positive(report.figures.tracing_cpu_us_per_turn)).toBe(true);
    expect(positive(report.figures.metrics_cpu_us_per_turn)).toBe(true);
    // part 13 streamed the whole turn through the bot and both streaming loops, with the same request bodies (it fails otherwise)
    expect(positive(report.cpu_ratio_streamed_to_default_openai_streaming_loop)).toBe(true);
    expect(report.parts.streamed.requestBodiesCompared.bodies).toBe(6);
    // part 16 streamed turns through the started bot on each platform and its floor in their own processes, same first-turn bodies
    for (const platform of ["terminal", "discord", "slack"]) {
      expect(positive(report.figures[`cpu_ratio_started_streamed_${platform}`]), platform).toBe(true);
    }
    expect(positive(report.figures.cpu_ratio_started_whole_terminal)).toBe(true);
    // and the same whole turn with MEMORY_SUMMARY=off, against the same floor
    expect(positive(report.figures.cpu_ratio_started_whole_terminal_without_summary)).toBe(true);
    expect(report.parts["started-streamed"].requestBodiesCompared).toBe(3);
    // part 7 streamed through the bot and the bare loop, and timed the first text on both platforms
    for (const key of ["stream_chunk_cpu_us", "stream_chunk_cpu_us_floor", "first_text_ms_discord", "first_text_ms_slack"]) {
      expect(positive(report[key]), `${key} = ${report[key]}`).toBe(true);
    }
    // part 6 scored every group of the text-protocol corpus
    for (const kind of ["json_blob", "invented_tail", "mrkl_form", "not_an_answer", "final_first", "other_forms", "as_today"]) {
      expect(positive(report.figures[`react_parser_score_${kind}`]), kind).toBe(true);
    }
  }, 300_000);

  it.skipIf(!availability.available)(
    availability.available
      ? "measures the PostgreSQL store and 1 against 3 processes"
      : `measures the PostgreSQL store (not run: ${availability.available ? "" : availability.reason})`,
    async () => {
      const { code, stdout, stderr } = await quickJson();
      expect(code, stderr).toBe(0);
      const report = JSON.parse(stdout);
      for (const key of ["pg_window_read_p99_ms", "pg_scaling_3_processes"]) expect(positive(report[key]), `${key} = ${report[key]}`).toBe(true);
      for (const key of ["pg_window_read_p50_ms", "pg_turn_writes_per_s", "pg_turns_per_s_1_process", "pg_turns_per_s_3_processes"]) {
        expect(positive(report.figures[key]), `${key} = ${report.figures[key]}`).toBe(true);
      }
      expect(report.figures.pg_window_read_p99_ms).toBeGreaterThanOrEqual(report.figures.pg_window_read_p50_ms);
    },
    120_000,
  );

  it("prints a table for people, and refuses a part it does not know", async () => {
    const table = await bench(["--quick", "--only", "store"]);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toContain("2. Memory store at scale");
    expect(table.stdout).toMatch(/window read p99 at 10,000 messages +[\d.]+ ms +goal < 0\.2/);
    // the goals table at the end: the goals in order, the ones this run did not measure marked so
    expect(table.stdout).toMatch(/Goals\n +figure +result +goal +met\?/);
    expect(table.stdout).toMatch(/cpu_us_per_turn_over_floor +not measured/);
    expect(table.stdout).toMatch(/window_read_p99_ms +[\d.]+ ms +< 0\.2 +(met|MISSED)/);

    const unknown = await bench(["--only", "e2e-teleport"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown part: e2e-teleport");
  }, 60_000);
});

import { agentOverheadPart } from "./parts/agent-overhead.js";
import { budgetCheckPart } from "./parts/budget-check.js";
import { concurrencyPart } from "./parts/concurrency.js";
import { consolePagesPart } from "./parts/console-pages.js";
import { discordFootprintPart } from "./parts/discord-footprint.js";
import { endToEndPart } from "./parts/end-to-end.js";
import { historyPart } from "./parts/history.js";
import { memoryFootprintPart } from "./parts/memory-footprint.js";
import { metricsCostPart } from "./parts/metrics-cost.js";
import { reactParserPart } from "./parts/react-parser.js";
import { postgresPart } from "./parts/postgres.js";
import { storeScalePart } from "./parts/store-scale.js";
import { streamedTurnPart } from "./parts/streamed-turn.js";
import { streamingPart } from "./parts/streaming.js";
import { tracingCostPart } from "./parts/tracing-cost.js";
import type { BenchPart } from "./types.js";

/**
 * Every part `npm run bench` runs, in order. A new part is one module under parts/ exporting a
 * BenchPart, added here.
 */
export const benchParts: BenchPart[] = [
  agentOverheadPart,
  storeScalePart,
  concurrencyPart,
  endToEndPart,
  memoryFootprintPart,
  reactParserPart,
  streamingPart,
  postgresPart,
  discordFootprintPart,
  budgetCheckPart,
  historyPart,
  metricsCostPart,
  streamedTurnPart,
  consolePagesPart,
  tracingCostPart,
];

/** The goals of issue 17 ("Lean and fast"), in its order: the JSON report always has these keys, and the goals table lists them first. */
export const ISSUE_GOAL_KEYS = [
  "cpu_us_per_turn_over_floor",
  "overhead_ratio_sequential",
  "overhead_ratio_concurrent",
  "concurrency_ratio_to_floor",
  "cpu_ratio_to_default_openai_loop",
  "rss_mb_after_startup",
  "rss_mb_after_10k_turns",
  "startup_ms_terminal",
  "e2e_overhead_p50_ms_discord",
  "e2e_overhead_p50_ms_slack",
  "e2e_overhead_p99_ms_discord",
  "e2e_overhead_p99_ms_slack",
  "window_read_p99_ms",
] as const;

/** The keys the JSON report always has; a figure no part measured is null. */
export const REQUIRED_KEYS = [
  ...ISSUE_GOAL_KEYS,
  "request_bodies_identical",
  "concurrency_efficiency",
  "stream_chunk_cpu_us",
  "stream_chunk_cpu_us_floor",
  "first_text_ms_discord",
  "first_text_ms_slack",
  "pg_window_read_p99_ms",
  "pg_scaling_3_processes",
  "rss_mb_after_10k_turns_discord",
  "budget_check_cpu_us",
  "cpu_ratio_streamed_to_default_openai_streaming_loop",
] as const;

/**
 * Keys named for the full run's sizes. A quick run measures smaller sizes under their own names
 * (rss_mb_after_160_turns), so it leaves these out rather than report them null or mislabelled.
 */
export const FULL_SIZE_KEYS: readonly string[] = ["rss_mb_after_10k_turns", "rss_mb_after_10k_turns_discord"];

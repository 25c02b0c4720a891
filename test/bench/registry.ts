import { agentOverheadPart } from "./parts/agent-overhead.js";
import { concurrencyPart } from "./parts/concurrency.js";
import { endToEndPart } from "./parts/end-to-end.js";
import { memoryFootprintPart } from "./parts/memory-footprint.js";
import { reactParserPart } from "./parts/react-parser.js";
import { postgresPart } from "./parts/postgres.js";
import { storeScalePart } from "./parts/store-scale.js";
import { streamingPart } from "./parts/streaming.js";
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
];

/** The keys the JSON report always has; a figure no part measured is null. */
export const REQUIRED_KEYS = [
  "overhead_ratio_sequential",
  "overhead_ratio_concurrent",
  "window_read_p99_ms",
  "concurrency_efficiency",
  "e2e_overhead_p99_ms_discord",
  "e2e_overhead_p99_ms_slack",
  "rss_mb_after_10k_turns",
  "stream_chunk_cpu_us",
  "stream_chunk_cpu_us_floor",
  "first_text_ms_discord",
  "first_text_ms_slack",
  "pg_window_read_p99_ms",
  "pg_scaling_3_processes",
] as const;

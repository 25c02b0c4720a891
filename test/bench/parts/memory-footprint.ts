import { firstJsonLine, spawnTs, stopChild } from "../support/child-process.js";
import { startModelProcess } from "../support/model-process.js";
import { round } from "../support/stats.js";
import type { BenchPart } from "../types.js";
import type { FootprintReport } from "./memory-footprint-child.js";

const SIZES = {
  full: { turns: 10_000, conversations: 1_000 },
  quick: { turns: 160, conversations: 60 },
};
/**
 * The live JS heap (after a forced GC) may grow this much over the second half of the turns before
 * we call it a leak: 2 MB over 5,000 turns is 400 bytes a turn. RSS is shown too, but it follows
 * what V8 and malloc keep reserved, so it moves by tens of MB without anything leaking.
 */
const HEAP_GROWTH_TOLERANCE_MB = 2;

/**
 * Part 5: resident memory of a fresh bot process after start-up and after many turns over many
 * conversations. Runs in its own process so the other parts' allocations do not count.
 */
export const memoryFootprintPart: BenchPart = {
  id: "footprint",
  title: "5. Memory footprint: a fresh process, instant model",
  async run(options) {
    const size = options.quick ? SIZES.quick : SIZES.full;
    const model = await startModelProcess();
    try {
      options.note(`footprint: ${size.turns} turns over ${size.conversations} conversations in a fresh process`);
      const child = spawnTs(
        new URL("./memory-footprint-child.ts", import.meta.url),
        [model.baseUrl(), String(size.turns), String(size.conversations)],
        ["--expose-gc"],
      );
      const report = await firstJsonLine<FootprintReport>(child);
      await stopChild(child);
      const half = report.samples.find((sample) => sample.turns === size.turns / 2)!;
      const last = report.samples.at(-1)!;
      const heapGrowth = round(last.heapUsedMb - half.heapUsedMb);
      const label = (n: number) => (n >= 1000 ? `${n / 1000}k` : String(n));
      return {
        figures: [
          { key: "rss_mb_after_startup", label: "RSS after start-up", value: round(report.samples[0]!.rssMb), unit: "MB" },
          { key: "rss_mb_after_5k_turns", label: `RSS after ${label(half.turns)} turns`, value: round(half.rssMb), unit: "MB" },
          { key: "rss_mb_after_10k_turns", label: `RSS after ${label(last.turns)} turns`, value: round(last.rssMb), unit: "MB" },
          { key: "rss_growth_mb_second_half", label: `RSS growth ${label(half.turns)} → ${label(last.turns)} turns`, value: round(last.rssMb - half.rssMb), unit: "MB" },
          { key: "heap_mb_after_startup", label: "live JS heap after start-up (after GC)", value: round(report.samples[0]!.heapUsedMb), unit: "MB" },
          { key: "heap_mb_after_10k_turns", label: `live JS heap after ${label(last.turns)} turns (after GC)`, value: round(last.heapUsedMb), unit: "MB" },
          { key: "heap_growth_mb_second_half", label: `live JS heap growth ${label(half.turns)} → ${label(last.turns)} turns`, value: heapGrowth, unit: "MB", goal: `≤ ${HEAP_GROWTH_TOLERANCE_MB}`, met: heapGrowth <= HEAP_GROWTH_TOLERANCE_MB },
          { key: "queue_keys_left", label: "conversation queues left after the turns", value: report.activeConversations, goal: "= 0", met: report.activeConversations === 0 },
        ],
        detail: { sizes: size, ...report },
      };
    } finally {
      await model.close();
    }
  },
};

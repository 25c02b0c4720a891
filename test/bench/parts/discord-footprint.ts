import { startBotOnFakes } from "../support/bot-on-fakes.js";
import { startModelProcess } from "../support/model-process.js";
import { startPlatformFakes } from "../support/platform-fakes.js";
import { round } from "../support/stats.js";
import type { BenchPart, Figure } from "../types.js";
import { heapGauges, turnsLabel } from "./memory-footprint.js";
import { INSPECT_LATER, liveHeapMb } from "../support/live-heap.js";

const SIZES = {
  full: { turns: 10_000, width: 20, restSeconds: 20 },
  quick: { turns: 160, width: 20, restSeconds: 1 },
};

/**
 * Part 9: the bot as production starts it (Discord and Slack configured, as in part 5), under
 * Discord turns only: every turn a mention with two tool steps, so the bot opens a thread on each
 * question, as discord.js hears of every message, edit and thread. Resident memory and the V8
 * heap at start-up, half-way, at the end and at rest show whether discord.js's caches grow with
 * the turns (issue 22: they kept every message and thread the bot saw).
 */
export const discordFootprintPart: BenchPart = {
  id: "discord-footprint",
  title: "9. Footprint under Discord load: the bot as production starts it, instant model",
  async run(options) {
    const size = options.quick ? SIZES.quick : SIZES.full;
    const model = await startModelProcess();
    const fakes = await startPlatformFakes(size.width);
    try {
      options.note("discord footprint: starting the bot with Discord and Slack configured");
      const started = await startBotOnFakes(model.baseUrl(), fakes, { NODE_OPTIONS: INSPECT_LATER });
      try {
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        const rss = () => round(started.bot.rss().totalMb);
        const atStartup = { rssMb: rss(), heap: await heapGauges(started.origin) };
        options.note(`discord footprint: ${size.turns} Discord turns, ${size.width} channels at once`);
        const half = await fakes.load("discord", size.turns / 2, size.width);
        const atHalf = { rssMb: rss(), heap: await heapGauges(started.origin) };
        const rest = await fakes.load("discord", size.turns / 2, size.width);
        const atEnd = { rssMb: rss(), heap: await heapGauges(started.origin) };
        options.note(`discord footprint: idle for ${size.restSeconds} s`);
        await new Promise((resolve) => setTimeout(resolve, size.restSeconds * 1000));
        const atRest = { rssMb: rss(), heap: await heapGauges(started.origin) };
        // last: opening the inspector to force a GC changes the process a little, after everything else was read
        // the bot's own process is the last the start command started (after sh)
        const node = started.bot.rss().processes.at(-1)!;
        const liveHeap = await liveHeapMb(node.pid, started.bot.logTail).then(round, (error: Error) => {
          options.note(`discord footprint: no live heap (${error.message})`);
          return null;
        });
        const n = turnsLabel(size.turns);
        const figures: Figure[] = [
          { key: "rss_mb_before_discord_turns", label: "RSS after start-up, before the Discord turns", value: atStartup.rssMb, unit: "MB" },
          {
            key: `rss_mb_after_${turnsLabel(size.turns / 2)}_turns_discord`,
            label: `RSS after ${turnsLabel(size.turns / 2)} Discord turns`,
            value: atHalf.rssMb,
            unit: "MB",
          },
          { key: `rss_mb_after_${n}_turns_discord`, label: `RSS after ${n} Discord turns`, value: atEnd.rssMb, unit: "MB" },
          {
            key: `rss_mb_after_${n}_turns_discord_at_rest`,
            label: `RSS ${size.restSeconds} s after the last of them`,
            value: atRest.rssMb,
            unit: "MB",
          },
          {
            key: `heap_used_mb_after_${n}_turns_discord`,
            label: `V8 heap in use after ${n} Discord turns, no forced GC (${atStartup.heap.usedMb} MB at start-up, ${atHalf.heap.usedMb} MB half-way)`,
            value: atEnd.heap.usedMb,
            unit: "MB",
          },
          { key: `heap_used_mb_after_${n}_turns_discord_at_rest`, label: "V8 heap in use at rest, no forced GC", value: atRest.heap.usedMb, unit: "MB" },
          {
            key: `live_heap_mb_after_${n}_turns_discord_at_rest`,
            label: "live JS heap at rest, after a forced GC (issue 22 measured 115 MB before; 28 MB Slack-only)",
            value: liveHeap,
            unit: "MB",
          },
          {
            key: "discord_turns_per_s",
            label: `Discord turns answered per second, ${size.width} channels at once`,
            value: round((half.turnsPerS + rest.turnsPerS) / 2),
          },
        ];
        return { figures, detail: { sizes: size, atStartup, atHalf, atEnd, atRest, liveHeapMb: liveHeap, load: [half, rest] } };
      } finally {
        await started.close();
      }
    } finally {
      await fakes.close();
      await model.close();
    }
  },
};

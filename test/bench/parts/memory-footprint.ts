import { startBotOnFakes } from "../support/bot-on-fakes.js";
import { firstJsonLine, spawnTs, stopChild } from "../support/child-process.js";
import { startModelProcess } from "../support/model-process.js";
import { startPlatformFakes } from "../support/platform-fakes.js";
import type { ProcessTreeRss } from "../support/production-bot.js";
import { median, round } from "../support/stats.js";
import { terminalStartupMs } from "../support/terminal-startup.js";
import type { BenchPart, Figure } from "../types.js";
import type { FootprintReport } from "./memory-footprint-child.js";

const SIZES = {
  full: { turns: 10_000, width: 20, restSeconds: 40, heapTurns: 10_000, heapConversations: 1_000, terminalStarts: 5 },
  quick: { turns: 160, width: 20, restSeconds: 1, heapTurns: 160, heapConversations: 60, terminalStarts: 1 },
};
const GOAL = { rssStartupMb: 120, rss10kMb: 150, terminalStartupMs: 500 };
/** The goal for RSS is after 10,000 turns: other sizes are reported under their own names, without it. */
const GOAL_TURNS = 10_000;
/**
 * The live JS heap (after a forced GC) may grow this much over the second half of the turns before
 * we call it a leak: 2 MB over 5,000 turns is 400 bytes a turn. RSS follows what V8 and malloc keep
 * reserved, so it moves by tens of MB without anything leaking.
 */
const HEAP_GROWTH_TOLERANCE_MB = 2;

export const turnsLabel = (n: number) => (n >= 1000 && n % 1000 === 0 ? `${n / 1000}k` : String(n));

/**
 * Part 5: the bot as production starts it (package.json's start script), with Discord and Slack
 * configured against the fakes: resident memory of its processes once both are connected, then
 * after many Slack turns; the terminal's start-up time to its first prompt; and, in a process of
 * its own with a forced GC, whether the live heap grows with turns (a leak).
 */
export const memoryFootprintPart: BenchPart = {
  id: "footprint",
  title: "5. Footprint and start-up: the bot as production starts it, instant model",
  async run(options) {
    const size = options.quick ? SIZES.quick : SIZES.full;
    const model = await startModelProcess();
    try {
      const started = await measureStartedBot(options.note, model.baseUrl(), size);
      options.note(`footprint: the terminal's start-up, ${size.terminalStarts} starts`);
      const terminalStarts: number[] = [];
      for (let i = 0; i < size.terminalStarts; i++) terminalStarts.push(await terminalStartupMs(model.baseUrl()));
      const startup = round(median(terminalStarts));
      options.note(`footprint: live heap over ${size.heapTurns} turns in a process of its own`);
      const heap = await measureHeap(model.baseUrl(), size);
      return {
        figures: [
          ...started.figures,
          {
            key: "startup_ms_terminal",
            label: `terminal: start to first prompt (median of ${size.terminalStarts})`,
            value: startup,
            unit: "ms",
            goal: `≤ ${GOAL.terminalStartupMs}`,
            met: startup <= GOAL.terminalStartupMs,
          },
          ...heap.figures,
        ],
        detail: { sizes: size, startedBot: started.detail, terminalStartsMs: terminalStarts.map((ms) => round(ms)), heap: heap.detail },
      };
    } finally {
      await model.close();
    }
  },
};

async function measureStartedBot(note: (message: string) => void, modelUrl: string, size: (typeof SIZES)["full"]) {
  const fakes = await startPlatformFakes(size.width);
  try {
    note("footprint: starting the bot with Discord and Slack configured");
    const started = await startBotOnFakes(modelUrl, fakes);
    try {
      // a moment for what start-up left to settle (timers, the first GC) before reading RSS
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const atStartup = started.bot.rss();
      const heapAtStartup = await heapGauges(started.origin);
      note(`footprint: ${size.turns} Slack turns, ${size.width} at once`);
      const half = await fakes.load("slack", size.turns / 2, size.width);
      const atHalf = started.bot.rss();
      const rest = await fakes.load("slack", size.turns / 2, size.width);
      const atEnd = started.bot.rss();
      const heapAtEnd = await heapGauges(started.origin);
      const queues = await conversationQueues(started.origin);
      note(`footprint: idle for ${size.restSeconds} s (V8 gives back the heap it reserved for the load once allocation stops)`);
      await new Promise((resolve) => setTimeout(resolve, size.restSeconds * 1000));
      const atRest = started.bot.rss();
      const heapAtRest = await heapGauges(started.origin);
      const mb = (rss: ProcessTreeRss) => round(rss.totalMb);
      const end = mb(atEnd);
      const startup = mb(atStartup);
      const endKey = `rss_mb_after_${turnsLabel(size.turns)}_turns`;
      const figures: Figure[] = [
        {
          key: "rss_mb_after_startup",
          label: "RSS after start-up, Discord + Slack connected (all its processes)",
          value: startup,
          unit: "MB",
          goal: `≤ ${GOAL.rssStartupMb}`,
          met: startup <= GOAL.rssStartupMb,
        },
        // the process that runs the bot is the last one the start command started (after sh, a tsx launcher…)
        {
          key: "rss_mb_after_startup_bot_process",
          label: `RSS after start-up, the bot's own process of ${atStartup.processes.length}`,
          value: round(atStartup.processes.at(-1)!.rssMb),
          unit: "MB",
        },
        {
          key: `rss_mb_after_${turnsLabel(size.turns / 2)}_turns`,
          label: `RSS after ${turnsLabel(size.turns / 2)} Slack turns`,
          value: mb(atHalf),
          unit: "MB",
        },
        size.turns === GOAL_TURNS
          ? {
              key: endKey,
              label: `RSS after ${turnsLabel(size.turns)} Slack turns`,
              value: end,
              unit: "MB",
              goal: `≤ ${GOAL.rss10kMb}`,
              met: end <= GOAL.rss10kMb,
            }
          : { key: endKey, label: `RSS after ${turnsLabel(size.turns)} Slack turns`, value: end, unit: "MB" },
        {
          key: `heap_total_mb_after_${turnsLabel(size.turns)}_turns`,
          label: `V8 heap reserved after ${turnsLabel(size.turns)} Slack turns (of that RSS)`,
          value: heapAtEnd.totalMb,
          unit: "MB",
        },
        {
          key: `heap_used_mb_after_${turnsLabel(size.turns)}_turns`,
          label: `V8 heap in use after ${turnsLabel(size.turns)} Slack turns (no forced GC)`,
          value: heapAtEnd.usedMb,
          unit: "MB",
        },
        {
          key: `rss_mb_after_${turnsLabel(size.turns)}_turns_at_rest`,
          label: `RSS ${size.restSeconds} s after the last of them (V8 heap reserved ${heapAtRest.totalMb} MB)`,
          value: mb(atRest),
          unit: "MB",
        },
        {
          key: "slack_events_per_s",
          label: `Slack events answered per second, ${size.width} channels at once`,
          value: round((half.turnsPerS + rest.turnsPerS) / 2),
        },
        { key: "queue_keys_left", label: "conversation queues left after the turns", value: queues, goal: "= 0", met: queues === 0 },
      ];
      return {
        figures,
        detail: {
          processesAtStartup: atStartup.processes,
          processesAtEnd: atEnd.processes,
          heapAtStartup,
          heapAtEnd,
          processesAtRest: atRest.processes,
          heapAtRest,
          load: [half, rest],
        },
      };
    } finally {
      await started.close();
    }
  } finally {
    await fakes.close();
  }
}

const QUEUES_DRAIN_MS = 5_000;

/**
 * The bot's own gauge of conversations with turns waiting or running, from /metrics, once it
 * reads 0 or QUEUES_DRAIN_MS have passed: an answer reaches the platform a moment before its turn
 * closes and gives its place in the line up.
 */
async function conversationQueues(origin: string): Promise<number> {
  const deadline = Date.now() + QUEUES_DRAIN_MS;
  for (;;) {
    const metrics = await (await fetch(`${origin}/metrics`)).text();
    const value = /^bot_conversation_queues (\d+)$/m.exec(metrics)?.[1];
    if (value === undefined) throw new Error("the bot's /metrics has no bot_conversation_queues");
    if (Number(value) === 0 || Date.now() > deadline) return Number(value);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The bot's own memory gauges from /metrics, in MB: V8's heap reserved and in use, and memory held outside it. */
export async function heapGauges(origin: string): Promise<{ totalMb: number; usedMb: number; externalMb: number }> {
  const metrics = await (await fetch(`${origin}/metrics`)).text();
  const mb = (name: string) => {
    const value = new RegExp(`^${name} (\\d+)$`, "m").exec(metrics)?.[1];
    if (value === undefined) throw new Error(`the bot's /metrics has no ${name}`);
    return round(Number(value) / 1024 / 1024);
  };
  return { totalMb: mb("nodejs_heap_size_total_bytes"), usedMb: mb("nodejs_heap_size_used_bytes"), externalMb: mb("nodejs_external_memory_bytes") };
}

async function measureHeap(modelUrl: string, size: (typeof SIZES)["full"]) {
  const child = spawnTs(
    new URL("./memory-footprint-child.ts", import.meta.url),
    [modelUrl, String(size.heapTurns), String(size.heapConversations)],
    ["--expose-gc"],
  );
  const report = await firstJsonLine<FootprintReport>(child);
  await stopChild(child);
  const half = report.samples.find((sample) => sample.turns === size.heapTurns / 2)!;
  const last = report.samples.at(-1)!;
  const growth = round(last.heapUsedMb - half.heapUsedMb);
  const figures: Figure[] = [
    { key: "heap_mb_after_startup", label: "live JS heap after start-up (after GC, in-process bot)", value: round(report.samples[0]!.heapUsedMb), unit: "MB" },
    {
      key: `heap_mb_after_${turnsLabel(last.turns)}_turns`,
      label: `live JS heap after ${turnsLabel(last.turns)} turns (after GC)`,
      value: round(last.heapUsedMb),
      unit: "MB",
    },
    {
      key: "heap_growth_mb_second_half",
      label: `live JS heap growth ${turnsLabel(half.turns)} → ${turnsLabel(last.turns)} turns`,
      value: growth,
      unit: "MB",
      goal: `≤ ${HEAP_GROWTH_TOLERANCE_MB}`,
      met: growth <= HEAP_GROWTH_TOLERANCE_MB,
    },
    {
      key: "queue_keys_left_in_process",
      label: "conversation queues left, in-process bot",
      value: report.activeConversations,
      goal: "= 0",
      met: report.activeConversations === 0,
    },
  ];
  return { figures, detail: report };
}

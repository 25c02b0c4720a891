import { FloorAgent } from "../support/floor-agent.js";
import { startBenchApp } from "../support/bench-app.js";
import { startDiscordDriver, startSlackDriver, type E2eDriver } from "../support/e2e-drivers.js";
import { runLoad } from "../support/load.js";
import { startModelProcess } from "../support/model-process.js";
import { median, quantile, round } from "../support/stats.js";
import { QUESTION } from "../support/turn-script.js";
import type { BenchPart, Figure } from "../types.js";

const SIZES = {
  full: { warmup: 20, rounds: 3, perRound: 30, burst: 300, channels: 20 },
  quick: { warmup: 2, rounds: 1, perRound: 3, burst: 10, channels: 5 },
};
/**
 * Timed events are spaced this far apart: a tool-using turn makes 7 Discord REST calls, and
 * discord.js keeps a bot under Discord's global 50 requests/s, so back-to-back events would time
 * that limit (about a second's wait every few events), not the bot. The burst below shows it.
 */
const EVENT_SPACING_MS = 200;
const GOAL_P99_MS = 10;
const PLATFORMS = ["discord", "slack"] as const;
type PlatformName = (typeof PLATFORMS)[number];

/**
 * Part 4: a mention through the real discord.js Client and a signed event through the real Bolt
 * App, against their fakes and the instant model, timed from sending the event to the fake
 * receiving the answer's REST call. The floor is the same three model requests made with the
 * bare openai client; overhead = event-to-answer time minus the floor's median turn.
 */
export const endToEndPart: BenchPart = {
  id: "e2e",
  title: "4. End to end: event in through discord.js / Bolt, answer's REST call out (instant model)",
  async run(options) {
    const size = options.quick ? SIZES.quick : SIZES.full;
    const model = await startModelProcess();
    const floorApp = await startBenchApp(model.baseUrl());
    const drivers: Record<PlatformName, E2eDriver> = {
      discord: await startDiscordDriver(model.baseUrl(), size.channels),
      slack: await startSlackDriver(model.baseUrl(), size.channels),
    };
    try {
      const floor = new FloorAgent(model.baseUrl(), await floorApp.app.access.enabledTools({ platform: "bench", workspaceId: "w1" }), floorApp.app.config);
      const floorTurn = async () => {
        const started = performance.now();
        await floor.turn("floor", QUESTION);
        return performance.now() - started;
      };
      options.note(`e2e: warming up (${size.warmup} events per platform)`);
      for (let i = 0; i < size.warmup; i++) {
        await floorTurn();
        for (const name of PLATFORMS) await drivers[name].event(0);
      }
      // Rounds alternate floor and platforms, so a busy moment of the machine hits all of them.
      const latencies: Record<PlatformName | "floor", number[]> = { floor: [], discord: [], slack: [] };
      for (let round = 0; round < size.rounds; round++) {
        for (let i = 0; i < size.perRound; i++) latencies.floor.push(await spaced(floorTurn));
        for (const name of PLATFORMS) {
          for (let i = 0; i < size.perRound; i++) latencies[name].push(await spaced(() => drivers[name].event(0)));
        }
      }
      const floorP50 = median(latencies.floor);
      const figures: Figure[] = [{ key: "e2e_floor_turn_p50_ms", label: "floor turn p50 (three bare model requests)", value: round(floorP50), unit: "ms" }];
      const detail: Record<string, unknown> = { sizes: size, floor_p99_ms: round(quantile(latencies.floor, 0.99)) };
      for (const name of PLATFORMS) {
        options.note(`e2e ${name}: ${size.burst} events over ${size.channels} channels at once, as fast as they are answered`);
        const burst = await runLoad((conversation) => drivers[name].event(Number(conversation)).then(() => undefined), {
          turns: size.burst,
          width: size.channels,
          conversation: (worker) => String(worker),
        });
        const p50 = quantile(latencies[name], 0.5);
        const p99 = quantile(latencies[name], 0.99);
        const overheadP99 = round(p99 - floorP50);
        figures.push(
          { key: `e2e_overhead_p99_ms_${name}`, label: `${name}: overhead p99 (event to answer, minus floor p50)`, value: overheadP99, unit: "ms", goal: `< ${GOAL_P99_MS}`, met: overheadP99 < GOAL_P99_MS },
          { key: `e2e_overhead_p50_ms_${name}`, label: `${name}: overhead p50`, value: round(p50 - floorP50), unit: "ms" },
          { key: `e2e_latency_p50_ms_${name}`, label: `${name}: event to answer p50 / p99`, value: round(p50), unit: `ms / ${round(p99)} ms` },
          { key: `e2e_events_per_s_${name}`, label: `${name}: events/s sustained, ${size.channels} channels at once`, value: round(burst.turnsPerS) },
        );
        detail[name] = { p50_ms: round(p50), p99_ms: round(p99), burst };
      }
      return { figures, detail };
    } finally {
      for (const name of PLATFORMS) await drivers[name].close();
      await floorApp.close();
      await model.close();
    }
  },
};

/** Runs one timed event, then waits out the rest of EVENT_SPACING_MS. */
async function spaced(event: () => Promise<number>): Promise<number> {
  const started = performance.now();
  const ms = await event();
  const rest = EVENT_SPACING_MS - (performance.now() - started);
  if (rest > 0) await new Promise((resolve) => setTimeout(resolve, rest));
  return ms;
}

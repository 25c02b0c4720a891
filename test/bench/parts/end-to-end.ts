import { startBenchApp } from "../support/bench-app.js";
import { startBotOnFakes } from "../support/bot-on-fakes.js";
import { FloorAgent } from "../support/floor-agent.js";
import { startModelProcess } from "../support/model-process.js";
import { startPlatformFakes } from "../support/platform-fakes.js";
import { quantile, round } from "../support/stats.js";
import { QUESTION } from "../support/turn-script.js";
import type { BenchPart, Figure } from "../types.js";

const SIZES = {
  full: { warmup: 20, rounds: 10, perRound: 50, channels: 20 },
  quick: { warmup: 2, rounds: 1, perRound: 3, channels: 5 },
};
/**
 * Timed events start this far apart. A tool-using turn makes about 7 Discord REST calls, and
 * discord.js keeps a bot under Discord's global 50 requests/s (a fixed one-second window), so
 * closer Discord events would time that limit (a wait of up to a second), not the bot. Slack and
 * the floor have no such limit; a short gap keeps one event's tail out of the next.
 */
const SPACING_MS = { discord: 160, slack: 20, floor: 20 };
const GOAL = { p50: 3, p99: 10 };
const PLATFORMS = ["discord", "slack"] as const;
type Arm = (typeof PLATFORMS)[number] | "floor";

/**
 * Part 4: the bot started as production starts it, with Discord and Slack both configured; a
 * mention through the fake gateway to its discord.js Client and a signed event to its Bolt
 * receiver, timed in the fakes' own process from sending the event to receiving the answer's
 * REST call. The floor, timed here, is the same three model requests made with the bare openai
 * client. Rounds alternate floor and platforms; each quantile of the overhead is the platform's
 * quantile minus the floor's same quantile.
 */
export const endToEndPart: BenchPart = {
  id: "e2e",
  title: "4. End to end: event in through discord.js / Bolt, answer's REST call out (bot as started in production, instant model)",
  async run(options) {
    const size = options.quick ? SIZES.quick : SIZES.full;
    const model = await startModelProcess();
    const fakes = await startPlatformFakes(size.channels);
    const floorApp = await startBenchApp(model.baseUrl());
    const bot = await startBotOnFakes(model.baseUrl(), fakes).catch(async (error) => {
      await Promise.all([floorApp.close(), fakes.close(), model.close()]);
      throw error;
    });
    try {
      const floor = new FloorAgent(model.baseUrl(), await floorApp.app.access.enabledTools({ platform: "bench", workspaceId: "w1" }), floorApp.app.config);
      const floorEvents = async (count: number) => {
        const latencies: number[] = [];
        for (let i = 0; i < count; i++) {
          const started = performance.now();
          await floor.turn("floor", QUESTION);
          latencies.push(performance.now() - started);
          await new Promise((resolve) => setTimeout(resolve, SPACING_MS.floor));
        }
        return latencies;
      };
      const eventsOf = (arm: Arm, count: number) => (arm === "floor" ? floorEvents(count) : fakes.events(arm, count, SPACING_MS[arm]));

      options.note(`e2e: warming up (${size.warmup} events per platform)`);
      for (const arm of ["floor", ...PLATFORMS] as const) await eventsOf(arm, size.warmup);
      const latencies: Record<Arm, number[]> = { floor: [], discord: [], slack: [] };
      const order: Arm[] = ["floor", ...PLATFORMS];
      for (let round = 0; round < size.rounds; round++) {
        // each round in the reverse order of the one before, so a busy moment of the machine hits all arms alike
        for (const arm of round % 2 === 0 ? order : [...order].reverse()) latencies[arm].push(...(await eventsOf(arm, size.perRound)));
        options.note(`e2e: round ${round + 1}/${size.rounds} (${size.perRound} events per arm)`);
      }

      const at = (arm: Arm, q: number) => quantile(latencies[arm], q);
      const figures: Figure[] = [
        { key: "e2e_floor_turn_p50_ms", label: "floor turn p50 / p99 (three bare model requests)", value: round(at("floor", 0.5)), unit: `ms / ${round(at("floor", 0.99))} ms` },
      ];
      for (const name of PLATFORMS) {
        const p50 = round(at(name, 0.5) - at("floor", 0.5));
        const p99 = round(at(name, 0.99) - at("floor", 0.99));
        figures.push(
          { key: `e2e_overhead_p50_ms_${name}`, label: `${name}: overhead p50 (event to answer p50 − floor p50)`, value: p50, unit: "ms", goal: `≤ ${GOAL.p50}`, met: p50 <= GOAL.p50 },
          { key: `e2e_overhead_p99_ms_${name}`, label: `${name}: overhead p99 (event to answer p99 − floor p99)`, value: p99, unit: "ms", goal: `≤ ${GOAL.p99}`, met: p99 <= GOAL.p99 },
          { key: `e2e_latency_p50_ms_${name}`, label: `${name}: event to answer p50 / p99`, value: round(at(name, 0.5)), unit: `ms / ${round(at(name, 0.99))} ms` },
        );
      }
      figures.push({ key: "e2e_timed_events_per_platform", label: "timed events per platform (and floor turns)", value: latencies.discord.length });
      const quantiles = (arm: Arm) => Object.fromEntries([0.5, 0.9, 0.99].map((q) => [`p${q * 100}_ms`, round(at(arm, q))]));
      return {
        figures,
        detail: {
          sizes: size,
          spacingMs: SPACING_MS,
          floor: quantiles("floor"),
          discord: quantiles("discord"),
          slack: quantiles("slack"),
        },
      };
    } finally {
      await bot.close();
      await floorApp.close();
      await fakes.close();
      await model.close();
    }
  },
};

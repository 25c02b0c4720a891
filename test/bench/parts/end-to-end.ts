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
 * Timed events start this far apart. discord.js keeps a bot under Discord's global 50 requests/s
 * (a fixed one-second window), and a tool-using turn makes several Discord REST calls, so
 * Discord events closer than that allows would time the limit (a wait of up to a second), not
 * the bot: their spacing is set from the calls the warm-up events made, to use at most
 * DISCORD_CALLS_PER_S of the 50. Slack and the floor have no such limit; a short gap keeps one
 * event's tail out of the next.
 */
/** The Discord figure holds for the warm-up only, wide enough for 8 calls an event. */
const SPACING_MS = { discord: 160, slack: 20, floor: 20 };
const DISCORD_CALLS_PER_S = 40;
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
      const spacing = { ...SPACING_MS };
      const floorEvents = async (count: number) => {
        const latencies: number[] = [];
        for (let i = 0; i < count; i++) {
          const started = performance.now();
          await floor.turn("floor", QUESTION);
          latencies.push(performance.now() - started);
          await new Promise((resolve) => setTimeout(resolve, spacing.floor));
        }
        return latencies;
      };
      const restCalls = { discord: 0, slack: 0 };
      const eventsOf = async (arm: Arm, count: number) => {
        if (arm === "floor") return floorEvents(count);
        const events = await fakes.events(arm, count, spacing[arm]);
        restCalls[arm] += events.restCalls;
        return events.latencies;
      };

      options.note(`e2e: warming up (${size.warmup} events per platform)`);
      for (const arm of ["floor", ...PLATFORMS] as const) await eventsOf(arm, size.warmup);
      spacing.discord = Math.ceil((1000 * restCalls.discord) / size.warmup / DISCORD_CALLS_PER_S);
      options.note(`e2e: ${round(restCalls.discord / size.warmup)} Discord calls per event, so Discord events ${spacing.discord} ms apart`);
      restCalls.discord = restCalls.slack = 0;
      const latencies: Record<Arm, number[]> = { floor: [], discord: [], slack: [] };
      const order: Arm[] = ["floor", ...PLATFORMS];
      for (let round = 0; round < size.rounds; round++) {
        // each round in the reverse order of the one before, so a busy moment of the machine hits all arms alike
        for (const arm of round % 2 === 0 ? order : [...order].reverse()) latencies[arm].push(...(await eventsOf(arm, size.perRound)));
        options.note(`e2e: round ${round + 1}/${size.rounds} (${size.perRound} events per arm)`);
      }

      const at = (arm: Arm, q: number) => quantile(latencies[arm], q);
      const figures: Figure[] = [
        {
          key: "e2e_floor_turn_p50_ms",
          label: "floor turn p50 / p99 (three bare model requests)",
          value: round(at("floor", 0.5)),
          unit: `ms / ${round(at("floor", 0.99))} ms`,
        },
      ];
      for (const name of PLATFORMS) {
        const p50 = round(at(name, 0.5) - at("floor", 0.5));
        const p99 = round(at(name, 0.99) - at("floor", 0.99));
        figures.push(
          {
            key: `e2e_overhead_p50_ms_${name}`,
            label: `${name}: overhead p50 (event to answer p50 − floor p50)`,
            value: p50,
            unit: "ms",
            goal: `≤ ${GOAL.p50}`,
            met: p50 <= GOAL.p50,
          },
          {
            key: `e2e_overhead_p99_ms_${name}`,
            label: `${name}: overhead p99 (event to answer p99 − floor p99)`,
            value: p99,
            unit: "ms",
            goal: `≤ ${GOAL.p99}`,
            met: p99 <= GOAL.p99,
          },
          {
            key: `e2e_latency_p50_ms_${name}`,
            label: `${name}: event to answer p50 / p99`,
            value: round(at(name, 0.5)),
            unit: `ms / ${round(at(name, 0.99))} ms`,
          },
        );
      }
      figures.push({ key: "e2e_timed_events_per_platform", label: "timed events per platform (and floor turns)", value: latencies.discord.length });
      const quantiles = (arm: Arm) => Object.fromEntries([0.5, 0.9, 0.99].map((q) => [`p${q * 100}_ms`, round(at(arm, q))]));
      return {
        figures,
        detail: {
          sizes: size,
          spacingMs: spacing,
          restCallsPerEvent: { discord: round(restCalls.discord / latencies.discord.length), slack: round(restCalls.slack / latencies.slack.length) },
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

import { startBenchApp, subjectTurn } from "../support/bench-app.js";
import { FloorAgent } from "../support/floor-agent.js";
import { runLoad, type LoadFigures } from "../support/load.js";
import { startModelProcess } from "../support/model-process.js";
import { median, round } from "../support/stats.js";
import { MODEL_REQUESTS_PER_TURN, QUESTION } from "../support/turn-script.js";
import type { BenchOptions, BenchPart } from "../types.js";

const MODEL_DELAY_MS = 50;
const SIZES = {
  full: { conversations: 200, fewConversations: 20, turnsEach: 10, rounds: 3 },
  quick: { conversations: 20, fewConversations: 5, turnsEach: 2, rounds: 1 },
};
const GOAL = 0.9;

type TurnFn = (conversation: string) => Promise<void>;

interface Level {
  conversations: number;
  idealTurnsPerS: number;
  subject: LoadFigures[];
  floor: LoadFigures[];
  /** Share of one core this process used while the runner ran (1 = saturated). */
  subjectCpuBusy: number[];
}

/**
 * Part 3: many conversations at once against a model that takes 50 ms per call. If nothing
 * global serialises independent conversations, each turn takes about 3 × 50 ms whatever the
 * number of conversations, so throughput is conversations / 150 ms. Measured at the 200
 * conversations, next to the bare openai loop (the floor) and at a level the CPU can carry. The
 * goal is against the floor, not the ideal: on a small machine the bare loop itself falls short
 * of the ideal at 200 conversations, which measures the machine, not the bot.
 */
export const concurrencyPart: BenchPart = {
  id: "concurrency",
  title: `3. Concurrency: conversations at once, model taking ${MODEL_DELAY_MS} ms per call`,
  async run(options) {
    const size = options.quick ? SIZES.quick : SIZES.full;
    const model = await startModelProcess();
    const bench = await startBenchApp(model.baseUrl(MODEL_DELAY_MS));
    try {
      const { app } = bench;
      const floor = new FloorAgent(model.baseUrl(MODEL_DELAY_MS), await app.access.enabledTools({ platform: "bench", workspaceId: "w1" }), app.config);
      const subject: TurnFn = (conversation) => subjectTurn(app, conversation);
      const floorTurn: TurnFn = (conversation) => floor.turn(conversation, QUESTION);

      options.note(`concurrency: warming up (${size.conversations} conversations × 1 turn)`);
      await runLoad(floorTurn, { turns: size.conversations, width: size.conversations });
      await runLoad(subject, { turns: size.conversations, width: size.conversations });
      const many = await measureLevel(options, subject, floorTurn, size.conversations, size);
      const few = await measureLevel(options, subject, floorTurn, size.fewConversations, size);

      const efficiency = (level: Level, arm: "subject" | "floor") => round(median(level[arm].map((run) => run.turnsPerS)) / level.idealTurnsPerS);
      const throughput = (level: Level, arm: "subject" | "floor") => median(level[arm].map((run) => run.turnsPerS));
      const ratio = round(throughput(many, "subject") / throughput(many, "floor"));
      const n = size.conversations;
      return {
        figures: [
          { key: "concurrency_ratio_to_floor", label: `runner / floor throughput, ${n} conversations`, value: ratio, goal: `≥ ${GOAL}`, met: ratio >= GOAL },
          { key: "concurrency_turns_per_s", label: `runner turns/s, ${n} conversations`, value: round(throughput(many, "subject")) },
          { key: "concurrency_floor_turns_per_s", label: `floor (bare openai loop) turns/s, ${n} conversations`, value: round(throughput(many, "floor")) },
          {
            key: "concurrency_ideal_turns_per_s",
            label: `ideal turns/s (${n} / ${MODEL_REQUESTS_PER_TURN * MODEL_DELAY_MS} ms)`,
            value: round(many.idealTurnsPerS),
          },
          { key: "concurrency_efficiency", label: `runner achieved / ideal throughput, ${n} conversations`, value: efficiency(many, "subject") },
          { key: "concurrency_floor_efficiency", label: `floor achieved / ideal, ${n} conversations`, value: efficiency(many, "floor") },
          {
            key: "concurrency_turn_p99_ms",
            label: `runner turn p99, ${n} conversations`,
            value: round(median(many.subject.map((run) => run.p99Ms))),
            unit: "ms",
          },
          { key: "concurrency_cpu_busy", label: `CPU busy while the runner ran, ${n} conversations (1 = one core)`, value: round(median(many.subjectCpuBusy)) },
          { key: "concurrency_efficiency_few", label: `achieved / ideal throughput, ${few.conversations} conversations`, value: efficiency(few, "subject") },
          { key: "concurrency_floor_efficiency_few", label: `floor achieved / ideal, ${few.conversations} conversations`, value: efficiency(few, "floor") },
        ],
        detail: { sizes: size, modelDelayMs: MODEL_DELAY_MS, levels: [many, few] },
      };
    } finally {
      await bench.close();
      await model.close();
    }
  },
};

async function measureLevel(
  options: BenchOptions,
  subject: TurnFn,
  floor: TurnFn,
  conversations: number,
  size: { turnsEach: number; rounds: number },
): Promise<Level> {
  const shape = { turns: conversations * size.turnsEach, width: conversations };
  const level: Level = {
    conversations,
    idealTurnsPerS: conversations / ((MODEL_REQUESTS_PER_TURN * MODEL_DELAY_MS) / 1000),
    subject: [],
    floor: [],
    subjectCpuBusy: [],
  };
  for (let round = 0; round < size.rounds; round++) {
    const subjectFirst = round % 2 === 0;
    if (!subjectFirst) level.floor.push(await runLoad(floor, shape));
    const cpu = process.cpuUsage();
    const run = await runLoad(subject, shape);
    const used = process.cpuUsage(cpu);
    level.subject.push(run);
    level.subjectCpuBusy.push((used.user + used.system) / 1000 / run.wallMs);
    if (subjectFirst) level.floor.push(await runLoad(floor, shape));
    options.note(
      `concurrency ${conversations} conversations, round ${round + 1}/${size.rounds}: runner ${run.turnsPerS.toFixed(0)} turns/s, floor ${level.floor.at(-1)!.turnsPerS.toFixed(0)}, ideal ${level.idealTurnsPerS.toFixed(0)}`,
    );
  }
  return level;
}

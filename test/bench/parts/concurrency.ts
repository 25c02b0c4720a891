import { startBenchApp, subjectTurn } from "../support/bench-app.js";
import { FloorAgent } from "../support/floor-agent.js";
import { runLoad, type LoadFigures } from "../support/load.js";
import { startModelProcess } from "../support/model-process.js";
import { median, round } from "../support/stats.js";
import { MODEL_REQUESTS_PER_TURN, QUESTION } from "../support/turn-script.js";
import type { BenchPart } from "../types.js";

const MODEL_DELAY_MS = 50;
const SIZES = {
  full: { conversations: 200, turnsEach: 10, rounds: 3 },
  quick: { conversations: 20, turnsEach: 2, rounds: 1 },
};
const GOAL = 0.9;

/**
 * Part 3: many conversations at once against a model that takes 50 ms per call. If nothing
 * global serialises independent conversations, each turn takes about 3 × 50 ms whatever the
 * number of conversations, and throughput is conversations / 150 ms.
 */
export const concurrencyPart: BenchPart = {
  id: "concurrency",
  title: `3. Concurrency: conversations at once, model taking ${MODEL_DELAY_MS} ms per call`,
  async run(options) {
    const size = options.quick ? SIZES.quick : SIZES.full;
    const model = await startModelProcess();
    const bench = startBenchApp(model.baseUrl(MODEL_DELAY_MS));
    try {
      const { app } = bench;
      const floor = new FloorAgent(model.baseUrl(MODEL_DELAY_MS), app.access.enabledTools({ platform: "bench", workspaceId: "w1" }), app.config);
      const shape = { turns: size.conversations * size.turnsEach, width: size.conversations };
      const idealTurnsPerS = size.conversations / ((MODEL_REQUESTS_PER_TURN * MODEL_DELAY_MS) / 1000);
      const subject = (conversation: string) => subjectTurn(app, conversation);
      const floorTurn = (conversation: string) => floor.turn(conversation, QUESTION);

      options.note(`concurrency: warming up (${size.conversations} conversations × 1 turn)`);
      await runLoad(floorTurn, { turns: size.conversations, width: size.conversations });
      await runLoad(subject, { turns: size.conversations, width: size.conversations });
      const runs: { subject: LoadFigures; floor: LoadFigures }[] = [];
      for (let round = 0; round < size.rounds; round++) {
        const subjectRun = await runLoad(subject, shape);
        const floorRun = await runLoad(floorTurn, shape);
        runs.push({ subject: subjectRun, floor: floorRun });
        options.note(
          `concurrency round ${round + 1}/${size.rounds}: runner ${subjectRun.turnsPerS.toFixed(0)} turns/s, floor ${floorRun.turnsPerS.toFixed(0)}, ideal ${idealTurnsPerS.toFixed(0)}`,
        );
      }
      const achieved = median(runs.map((run) => run.subject.turnsPerS));
      const efficiency = round(achieved / idealTurnsPerS);
      const floorEfficiency = round(median(runs.map((run) => run.floor.turnsPerS)) / idealTurnsPerS);
      return {
        figures: [
          { key: "concurrency_efficiency", label: `achieved / ideal throughput, ${size.conversations} conversations`, value: efficiency, goal: `≥ ${GOAL}`, met: efficiency >= GOAL },
          { key: "concurrency_turns_per_s", label: "runner turns/s", value: round(achieved) },
          { key: "concurrency_ideal_turns_per_s", label: `ideal turns/s (${size.conversations} / ${MODEL_REQUESTS_PER_TURN * MODEL_DELAY_MS} ms)`, value: round(idealTurnsPerS) },
          { key: "concurrency_turn_p99_ms", label: "runner turn p99", value: round(median(runs.map((run) => run.subject.p99Ms))), unit: "ms" },
          { key: "concurrency_floor_efficiency", label: "floor (bare openai loop) achieved / ideal", value: floorEfficiency },
        ],
        detail: { sizes: size, modelDelayMs: MODEL_DELAY_MS, idealTurnsPerS, runs },
      };
    } finally {
      bench.close();
      await model.close();
    }
  },
};

import { startBenchApp, subjectTurn } from "../support/bench-app.js";
import { compareArms, type Comparison, type CompareShape } from "../support/compare.js";
import { FloorAgent } from "../support/floor-agent.js";
import { withInProcessModel } from "../support/in-process-model.js";
import { runLoad } from "../support/load.js";
import { startModelProcess } from "../support/model-process.js";
import { round } from "../support/stats.js";
import { QUESTION } from "../support/turn-script.js";
import type { BenchOptions, BenchPart, Figure } from "../types.js";

const CONCURRENT_CONVERSATIONS = 20;
const SIZES = {
  full: {
    warmupTurns: 500,
    sequential: { blocks: 40, turns: 25, width: 1 },
    concurrent: { blocks: 20, turns: 200, width: CONCURRENT_CONVERSATIONS },
    inProcess: { blocks: 40, turns: 50, width: 1 },
  },
  quick: {
    warmupTurns: 6,
    sequential: { blocks: 2, turns: 3, width: 1 },
    concurrent: { blocks: 2, turns: 20, width: CONCURRENT_CONVERSATIONS },
    inProcess: { blocks: 2, turns: 3, width: 1 },
  },
};
const GOAL_RATIO = 1.1;

type TurnFn = (conversation: string) => Promise<void>;

/** Part 1: what a full turn through the runner costs over the bare openai client, against an instant model. */
export const agentOverheadPart: BenchPart = {
  id: "overhead",
  title: "1. Agent-turn overhead: full TurnRunner vs a hand-written openai loop (instant model)",
  async run(options) {
    const size = options.quick ? SIZES.quick : SIZES.full;
    const model = await startModelProcess();
    const bench = await startBenchApp(model.baseUrl());
    try {
      const { app } = bench;
      const floor = new FloorAgent(model.baseUrl(), await app.access.enabledTools({ platform: "bench", workspaceId: "w1" }), app.config);
      const floorTurn: TurnFn = (conversation) => floor.turn(conversation, QUESTION);
      const subject: TurnFn = (conversation) => subjectTurn(app, conversation);

      options.note(`overhead: warming up (${size.warmupTurns} turns each, alone and ${CONCURRENT_CONVERSATIONS} at once)`);
      for (const turn of [floorTurn, subject]) {
        await runLoad(turn, { turns: size.warmupTurns, width: 1 });
        await runLoad(turn, { turns: size.warmupTurns, width: CONCURRENT_CONVERSATIONS });
      }
      const sequential = await measure(options, "sequential", floorTurn, subject, size.sequential);
      const concurrent = await measure(options, "concurrent", floorTurn, subject, size.concurrent);
      const inProcess = await measureInProcess(options, size.warmupTurns, size.inProcess);
      return {
        figures: [
          ...figuresOf("sequential", "1 conversation", sequential),
          ...figuresOf("concurrent", `${CONCURRENT_CONVERSATIONS} conversations`, concurrent),
          {
            key: "overhead_cpu_ms_per_turn_model_in_process",
            label: "CPU ours per turn, model answering in-process (no sockets)",
            value: round(inProcess.subject.cpuMsPerTurn - inProcess.floor.cpuMsPerTurn),
            unit: "ms",
          },
        ],
        detail: { sizes: size, sequential, concurrent, inProcess },
      };
    } finally {
      await bench.close();
      await model.close();
    }
  },
};

/**
 * The same comparison with the model answering inside this process: no sockets, so much less
 * noise from the machine; what differs between the arms is only our code.
 */
async function measureInProcess(options: BenchOptions, warmupTurns: number, shape: CompareShape): Promise<Comparison> {
  const { bench, floor } = await withInProcessModel(async () => {
    const bench = await startBenchApp("http://127.0.0.1:9/v1");
    const tools = await bench.app.access.enabledTools({ platform: "bench", workspaceId: "w1" });
    return { bench, floor: new FloorAgent("http://127.0.0.1:9/v1", tools, bench.app.config) };
  });
  try {
    const floorTurn: TurnFn = (conversation) => floor.turn(conversation, QUESTION);
    const subject: TurnFn = (conversation) => subjectTurn(bench.app, conversation);
    for (const turn of [floorTurn, subject]) await runLoad(turn, { turns: warmupTurns, width: 1 });
    return await measure(options, "in-process model", floorTurn, subject, shape);
  } finally {
    await bench.close();
  }
}

async function measure(options: BenchOptions, label: string, floor: TurnFn, subject: TurnFn, shape: CompareShape): Promise<Comparison> {
  options.note(`overhead ${label}: ${shape.blocks} alternating blocks of ${shape.turns} turns per arm`);
  const comparison = await compareArms(floor, subject, shape);
  options.note(
    `overhead ${label}: floor ${comparison.floor.turnsPerS.toFixed(0)} turns/s, runner ${comparison.subject.turnsPerS.toFixed(0)} turns/s, ratio ${comparison.ratio.toFixed(3)}`,
  );
  return comparison;
}

function figuresOf(mode: "sequential" | "concurrent", shape: string, comparison: Comparison): Figure[] {
  const { floor, subject } = comparison;
  const ratio = round(comparison.ratio);
  return [
    { key: `overhead_ratio_${mode}`, label: `ratio to floor, ${shape}`, value: ratio, goal: `≤ ${GOAL_RATIO.toFixed(2)}`, met: ratio <= GOAL_RATIO },
    { key: `turns_per_s_${mode}`, label: `runner turns/s, ${shape}`, value: round(subject.turnsPerS) },
    { key: `floor_turns_per_s_${mode}`, label: `floor turns/s, ${shape}`, value: round(floor.turnsPerS) },
    { key: `turn_p50_ms_${mode}`, label: `runner turn p50, ${shape}`, value: round(subject.p50Ms), unit: "ms" },
    { key: `turn_p99_ms_${mode}`, label: `runner turn p99, ${shape}`, value: round(subject.p99Ms), unit: "ms" },
    { key: `floor_turn_p50_ms_${mode}`, label: `floor turn p50, ${shape}`, value: round(floor.p50Ms), unit: "ms" },
    { key: `floor_turn_p99_ms_${mode}`, label: `floor turn p99, ${shape}`, value: round(floor.p99Ms), unit: "ms" },
    { key: `overhead_cpu_ms_per_turn_${mode}`, label: `CPU ours per turn (runner − floor), ${shape}`, value: round(subject.cpuMsPerTurn - floor.cpuMsPerTurn), unit: "ms" },
  ];
}

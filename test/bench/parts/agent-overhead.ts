import { startBenchApp, subjectTurn } from "../support/bench-app.js";
import { compareArms, type Comparison, type CompareShape } from "../support/compare.js";
import { FloorAgent } from "../support/floor-agent.js";
import { withInProcessModel } from "../support/in-process-model.js";
import { runLoad } from "../support/load.js";
import { startModelProcess } from "../support/model-process.js";
import { assertSameRequestBodies } from "../support/same-bodies.js";
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
const GOAL_CPU_US_OVER_FLOOR = 150;
const GOAL_CPU_RATIO_TO_DEFAULT_LOOP = 1;

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
      const tools = await app.access.enabledTools({ platform: "bench", workspaceId: "w1" });
      const floor = new FloorAgent(model.baseUrl(), tools, app.config);
      const defaultLoop = new FloorAgent(model.baseUrl(), tools, app.config, "sdk-default");
      const floorTurn: TurnFn = (conversation) => floor.turn(conversation, QUESTION);
      const defaultLoopTurn: TurnFn = (conversation) => defaultLoop.turn(conversation, QUESTION);
      const subject: TurnFn = (conversation) => subjectTurn(app, conversation);

      const bodies = await assertSameRequestBodies(model, { name: "the bot", turn: subject }, [
        { name: "the floor", turn: floorTurn },
        { name: "the default openai loop", turn: defaultLoopTurn },
      ]);
      options.note(`overhead: the bot, the floor and the default openai loop sent the same ${bodies.bodies} request bodies`);
      options.note(`overhead: warming up (${size.warmupTurns} turns each, alone and ${CONCURRENT_CONVERSATIONS} at once)`);
      for (const turn of [floorTurn, subject, defaultLoopTurn]) {
        await runLoad(turn, { turns: size.warmupTurns, width: 1 });
        await runLoad(turn, { turns: size.warmupTurns, width: CONCURRENT_CONVERSATIONS });
      }
      const sequential = await measure(options, "sequential", floorTurn, subject, size.sequential, defaultLoopTurn);
      const concurrent = await measure(options, "concurrent", floorTurn, subject, size.concurrent);
      const inProcess = await measureInProcess(options, size.warmupTurns, size.inProcess);
      return {
        figures: [
          ...cpuFigures(sequential),
          { key: "request_bodies_identical", label: "bot, floor and default loop sent identical request bodies (1 = yes)", value: 1, goal: "= 1", met: true },
          ...figuresOf("sequential", "1 conversation", sequential),
          ...figuresOf("concurrent", `${CONCURRENT_CONVERSATIONS} conversations`, concurrent),
          {
            key: "cpu_us_per_turn_over_floor_model_in_process",
            label: "our CPU per turn over the floor, model answering in-process (no sockets)",
            value: round((inProcess.subject.cpuMsPerTurn - inProcess.floor.cpuMsPerTurn) * 1000),
            unit: "µs",
          },
        ],
        detail: { sizes: size, requestBodiesCompared: bodies, sequential, concurrent, inProcess },
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

async function measure(options: BenchOptions, label: string, floor: TurnFn, subject: TurnFn, shape: CompareShape, reference?: TurnFn): Promise<Comparison> {
  options.note(`overhead ${label}: ${shape.blocks} alternating blocks of ${shape.turns} turns per arm`);
  const comparison = await compareArms(floor, subject, shape, reference);
  options.note(
    `overhead ${label}: floor ${comparison.floor.turnsPerS.toFixed(0)} turns/s, runner ${comparison.subject.turnsPerS.toFixed(0)} turns/s, ratio ${comparison.ratio.toFixed(3)}`,
  );
  return comparison;
}

/**
 * The primary figures, from the sequential run (one conversation, instant model over HTTP in its
 * own process): this process's CPU per turn for the bot, the floor and the bare loop with the
 * SDK's defaults, all measured in the same alternating blocks.
 */
function cpuFigures(comparison: Comparison): Figure[] {
  const us = (arm: { cpuMsPerTurn: number }) => arm.cpuMsPerTurn * 1000;
  const overFloor = round(us(comparison.subject) - us(comparison.floor));
  const ratio = round(us(comparison.subject) / us(comparison.reference!));
  return [
    {
      key: "cpu_us_per_turn_over_floor",
      label: "our CPU per turn over the floor, 1 conversation",
      value: overFloor,
      unit: "µs",
      goal: `≤ ${GOAL_CPU_US_OVER_FLOOR}`,
      met: overFloor <= GOAL_CPU_US_OVER_FLOOR,
    },
    {
      key: "cpu_ratio_to_default_openai_loop",
      label: "bot CPU per turn / bare loop with the SDK's defaults",
      value: ratio,
      goal: `≤ ${GOAL_CPU_RATIO_TO_DEFAULT_LOOP.toFixed(1)}`,
      met: ratio <= GOAL_CPU_RATIO_TO_DEFAULT_LOOP,
    },
    { key: "cpu_us_per_turn_bot", label: "bot CPU per turn (whole turn, SQLite and all)", value: round(us(comparison.subject)), unit: "µs" },
    { key: "cpu_us_per_turn_floor", label: "floor CPU per turn (the bot's openai client)", value: round(us(comparison.floor)), unit: "µs" },
    {
      key: "cpu_us_per_turn_default_openai_loop",
      label: "bare loop CPU per turn (openai SDK as it comes)",
      value: round(us(comparison.reference!)),
      unit: "µs",
    },
  ];
}

function figuresOf(mode: "sequential" | "concurrent", shape: string, comparison: Comparison): Figure[] {
  const { floor, subject } = comparison;
  const ratio = round(comparison.ratio);
  const figures: Figure[] = [
    { key: `overhead_ratio_${mode}`, label: `ratio to floor, ${shape}`, value: ratio, goal: `≤ ${GOAL_RATIO.toFixed(2)}`, met: ratio <= GOAL_RATIO },
    { key: `turns_per_s_${mode}`, label: `runner turns/s, ${shape}`, value: round(subject.turnsPerS) },
    { key: `floor_turns_per_s_${mode}`, label: `floor turns/s, ${shape}`, value: round(floor.turnsPerS) },
    { key: `turn_p50_ms_${mode}`, label: `runner turn p50, ${shape}`, value: round(subject.p50Ms), unit: "ms" },
    { key: `turn_p99_ms_${mode}`, label: `runner turn p99, ${shape}`, value: round(subject.p99Ms), unit: "ms" },
    { key: `floor_turn_p50_ms_${mode}`, label: `floor turn p50, ${shape}`, value: round(floor.p50Ms), unit: "ms" },
    { key: `floor_turn_p99_ms_${mode}`, label: `floor turn p99, ${shape}`, value: round(floor.p99Ms), unit: "ms" },
  ];
  // the sequential run's CPU figures lead the part (cpuFigures); this is the same difference with 20 at once
  if (mode === "concurrent") {
    figures.push({
      key: "cpu_us_per_turn_over_floor_concurrent",
      label: `our CPU per turn over the floor, ${shape}`,
      value: round((subject.cpuMsPerTurn - floor.cpuMsPerTurn) * 1000),
      unit: "µs",
    });
  }
  return figures;
}

import { createInterface } from "node:readline";
import { spawnTs, type BenchChild } from "../support/child-process.js";
import { startModelProcess } from "../support/model-process.js";
import { median } from "../support/stats.js";
import type { BenchOptions } from "../types.js";
import type { ScalingChildReport } from "./postgres-scaling-child.js";

const MODEL_DELAY_MS = 50;
/** The goal: three processes on one database give at least this much one process's throughput. */
export const SCALING_GOAL = 2.5;
const PROCESSES = 3;
/**
 * Per process, a load its CPU carries with room to spare (about a third of a core here), so the
 * factor shows whether something shared serialises the processes, not whether the machine is big.
 */
const SIZES = {
  full: { conversationsEach: 4, turnsEach: 160, rounds: 3 },
  quick: { conversationsEach: 2, turnsEach: 8, rounds: 1 },
};

interface RunFigures {
  processes: number;
  turns: number;
  turnsPerS: number;
  /** Each process's own rate, turn p99 and CPU per turn. */
  each: { turnsPerS: number; p99Ms: number; cpuMsPerTurn: number }[];
}

/**
 * 1 and 3 bot processes (createApp with DATABASE_URL: the real runner and PostgreSQL store), each
 * running the same load in conversations of its own against one fake model that takes 50 ms a
 * call. The two alternate in rounds, so a busy moment of the machine hits both; the factor is the
 * median over rounds of 3-process throughput / 1-process throughput.
 */
export async function measureScaling(databaseUrl: string, options: BenchOptions) {
  const size = options.quick ? SIZES.quick : SIZES.full;
  const model = await startModelProcess();
  const children = Array.from({ length: PROCESSES }, (_, index) =>
    spawnTs(new URL("./postgres-scaling-child.ts", import.meta.url), [
      model.baseUrl(MODEL_DELAY_MS),
      databaseUrl,
      String(index),
      String(size.conversationsEach),
    ]),
  );
  try {
    const lines = children.map(jsonLines);
    await Promise.all(lines.map((next) => next()));
    const rounds: { one: RunFigures; three: RunFigures; ratio: number }[] = [];
    for (let round = 0; round < size.rounds; round++) {
      const order = round % 2 === 0 ? [1, PROCESSES] : [PROCESSES, 1];
      const runs: Record<number, RunFigures> = {};
      for (const processes of order) runs[processes] = await run(children.slice(0, processes), lines, size.turnsEach);
      const [one, three] = [runs[1]!, runs[PROCESSES]!];
      rounds.push({ one, three, ratio: three.turnsPerS / one.turnsPerS });
      options.note(
        `postgres: round ${round + 1}/${size.rounds}: 1 process ${one.turnsPerS.toFixed(0)} turns/s, ${PROCESSES} processes ${three.turnsPerS.toFixed(0)} turns/s`,
      );
    }
    return {
      modelDelayMs: MODEL_DELAY_MS,
      conversationsEach: size.conversationsEach,
      idealTurnsPerSEach: size.conversationsEach / ((3 * MODEL_DELAY_MS) / 1000),
      oneTurnsPerS: median(rounds.map((round) => round.one.turnsPerS)),
      threeTurnsPerS: median(rounds.map((round) => round.three.turnsPerS)),
      factor: median(rounds.map((round) => round.ratio)),
      rounds,
    };
  } finally {
    for (const child of children) child.stdin.end();
    await Promise.all(children.map((child) => (child.exitCode === null ? new Promise((resolve) => child.once("exit", resolve)) : undefined)));
    await model.close();
  }
}

/** One run: every child given runs `turns` turns at once; throughput over the span from the first start to the last end. */
async function run(children: BenchChild[], lines: (() => Promise<unknown>)[], turns: number): Promise<RunFigures> {
  for (const child of children) child.stdin.write(`${turns}\n`);
  const reports = (await Promise.all(children.map((_, i) => lines[i]!()))) as ScalingChildReport[];
  const total = reports.reduce((sum, report) => sum + report.turns, 0);
  const wallMs = Math.max(...reports.map((report) => report.endedAt)) - Math.min(...reports.map((report) => report.startedAt));
  return {
    processes: children.length,
    turns: total,
    turnsPerS: (total * 1000) / wallMs,
    each: reports.map(({ turnsPerS, p99Ms, cpuMsPerTurn }) => ({ turnsPerS, p99Ms, cpuMsPerTurn })),
  };
}

/** Reads a child's stdout one JSON line at a time; rejects if it exits first. */
function jsonLines(child: BenchChild): () => Promise<unknown> {
  const queued: unknown[] = [];
  const waiting: { resolve(value: unknown): void; reject(error: Error): void }[] = [];
  let exited = false;
  createInterface({ input: child.stdout }).on("line", (line) => {
    const value = JSON.parse(line) as unknown;
    const next = waiting.shift();
    if (next) next.resolve(value);
    else queued.push(value);
  });
  child.once("exit", (code) => {
    exited = true;
    for (const next of waiting.splice(0)) next.reject(new Error(`a scaling child exited (code ${code}) before reporting`));
  });
  return () => {
    if (queued.length > 0) return Promise.resolve(queued.shift());
    if (exited) return Promise.reject(new Error("a scaling child exited before reporting"));
    return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
  };
}

import { createInterface } from "node:readline";
import { spawnTs, type BenchChild } from "../support/child-process.js";
import { startModelProcess } from "../support/model-process.js";
import type { BenchOptions } from "../types.js";
import type { ScalingChildReport } from "./postgres-scaling-child.js";

const MODEL_DELAY_MS = 50;
/** The goal: three processes on one database give at least this much one process's throughput. */
export const SCALING_GOAL = 2.5;
const SIZES = {
  full: { conversationsEach: 8, turnsEach: 480 },
  quick: { conversationsEach: 2, turnsEach: 8 },
};

interface RunFigures {
  processes: number;
  turns: number;
  turnsPerS: number;
  /** Each process's own rate and turn p99. */
  each: { turnsPerS: number; p99Ms: number }[];
}

/**
 * 1 and then 3 bot processes (createApp with DATABASE_URL, the real runner and PostgreSQL store),
 * each running the same load in conversations of its own against one fake model that takes 50 ms
 * a call. Per process the load is light enough for its CPU, so the processes scale unless
 * something shared (the database, a lock) serialises them: the factor says how much.
 */
export async function measureScaling(databaseUrl: string, options: BenchOptions) {
  const size = options.quick ? SIZES.quick : SIZES.full;
  const model = await startModelProcess();
  try {
    const one = await run(1, model.baseUrl(MODEL_DELAY_MS), databaseUrl, size, options);
    const three = await run(3, model.baseUrl(MODEL_DELAY_MS), databaseUrl, size, options);
    return { modelDelayMs: MODEL_DELAY_MS, conversationsEach: size.conversationsEach, one, three, factor: three.turnsPerS / one.turnsPerS };
  } finally {
    await model.close();
  }
}

async function run(processes: number, modelUrl: string, databaseUrl: string, size: (typeof SIZES)["full"], options: BenchOptions): Promise<RunFigures> {
  options.note(`postgres: ${processes} process(es) × ${size.conversationsEach} conversations × ${size.turnsEach} turns, model ${MODEL_DELAY_MS} ms a call`);
  const children = Array.from({ length: processes }, (_, index) =>
    spawnTs(new URL("./postgres-scaling-child.ts", import.meta.url), [modelUrl, databaseUrl, `${processes}-${index}`, String(size.conversationsEach), String(size.turnsEach)]),
  );
  try {
    const lines = children.map(jsonLines);
    await Promise.all(lines.map((next) => next()));
    for (const child of children) child.stdin.write("go\n");
    const reports = (await Promise.all(lines.map((next) => next()))) as ScalingChildReport[];
    const turns = reports.reduce((total, report) => total + report.turns, 0);
    const wallMs = Math.max(...reports.map((report) => report.endedAt)) - Math.min(...reports.map((report) => report.startedAt));
    const figures = { processes, turns, turnsPerS: (turns * 1000) / wallMs, each: reports.map(({ turnsPerS, p99Ms }) => ({ turnsPerS, p99Ms })) };
    options.note(`postgres: ${processes} process(es): ${figures.turnsPerS.toFixed(0)} turns/s`);
    return figures;
  } finally {
    for (const child of children) child.stdin.end();
    await Promise.all(children.map((child) => (child.exitCode === null ? new Promise((resolve) => child.once("exit", resolve)) : undefined)));
  }
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

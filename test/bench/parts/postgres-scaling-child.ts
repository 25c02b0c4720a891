import { createInterface } from "node:readline";
import { startBenchApp, subjectTurn } from "../support/bench-app.js";
import { runLoad } from "../support/load.js";

/** What one process of the scaling measure reports. */
export interface ScalingChildReport {
  turns: number;
  /** Wall-clock times (ms since the epoch, fractional) of the measured load's start and end. */
  startedAt: number;
  endedAt: number;
  turnsPerS: number;
  p99Ms: number;
}

const now = () => performance.timeOrigin + performance.now();

// Entry of a scaling child: argv = model URL, database URL, process index, conversations, turns.
// Prints {"ready":true} once warmed up, runs the load when a line arrives on stdin, prints its report.
async function main(): Promise<void> {
  const [modelUrl, databaseUrl, index, conversationsArg, turnsArg] = process.argv.slice(2);
  const conversations = Number(conversationsArg);
  const bench = await startBenchApp(modelUrl!, { DATABASE_URL: databaseUrl!, INSTANCE_ID: `bench-${index}`, DATABASE_POOL_SIZE: String(Math.max(4, conversations)) });
  // each process talks in conversations of its own, as processes behind a load balancer mostly do
  const conversation = (worker: number) => `process-${index}-conversation-${worker}`;
  await runLoad((name) => subjectTurn(bench.app, name), { turns: conversations, width: conversations, conversation });
  process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
  const lines = createInterface({ input: process.stdin });
  for await (const _ of lines) break;
  const startedAt = now();
  const load = await runLoad((name) => subjectTurn(bench.app, name), { turns: Number(turnsArg), width: conversations, conversation });
  const report: ScalingChildReport = { turns: load.turns, startedAt, endedAt: now(), turnsPerS: load.turnsPerS, p99Ms: load.p99Ms };
  process.stdout.write(`${JSON.stringify(report)}\n`);
  await bench.close();
}

main().catch((error) => {
  process.stderr.write(`the scaling child failed: ${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(1);
});

import { createInterface } from "node:readline";
import { startBenchApp, subjectTurn } from "../support/bench-app.js";
import { runLoad } from "../support/load.js";

/** What one process of the scaling measure reports for one run. */
export interface ScalingChildReport {
  turns: number;
  /** Wall-clock times (ms since the epoch, fractional) of the run's start and end. */
  startedAt: number;
  endedAt: number;
  turnsPerS: number;
  p99Ms: number;
  /** CPU this process used per turn (ms), for judging whether the machine had room for it. */
  cpuMsPerTurn: number;
}

const now = () => performance.timeOrigin + performance.now();

// Entry of a scaling child: argv = model URL, database URL, process index, conversations.
// Prints {"ready":true} once warmed up; then, for each line "TURNS" on stdin, runs that many turns
// and prints its report; stops at the end of stdin.
async function main(): Promise<void> {
  const [modelUrl, databaseUrl, index, conversationsArg] = process.argv.slice(2);
  const conversations = Number(conversationsArg);
  const bench = await startBenchApp(modelUrl!, {
    DATABASE_URL: databaseUrl!,
    INSTANCE_ID: `bench-${index}`,
    DATABASE_POOL_SIZE: String(Math.max(4, conversations)),
  });
  // each process talks in conversations of its own, as processes behind a load balancer mostly do
  const conversation = (worker: number) => `process-${index}-conversation-${worker}`;
  const turn = (name: string) => subjectTurn(bench.app, name);
  await runLoad(turn, { turns: conversations * 2, width: conversations, conversation });
  process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
  for await (const line of createInterface({ input: process.stdin })) {
    const startedAt = now();
    const cpu = process.cpuUsage();
    const load = await runLoad(turn, { turns: Number(line), width: conversations, conversation });
    const used = process.cpuUsage(cpu);
    const report: ScalingChildReport = {
      turns: load.turns,
      startedAt,
      endedAt: now(),
      turnsPerS: load.turnsPerS,
      p99Ms: load.p99Ms,
      cpuMsPerTurn: (used.user + used.system) / 1000 / load.turns,
    };
    process.stdout.write(`${JSON.stringify(report)}\n`);
  }
  await bench.close();
}

main().catch((error) => {
  process.stderr.write(`the scaling child failed: ${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(1);
});

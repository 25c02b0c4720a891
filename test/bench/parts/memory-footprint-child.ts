import { startBenchApp, subjectTurn } from "../support/bench-app.js";
import { runLoad } from "../support/load.js";
import { toMb } from "../support/stats.js";

/** Where the footprint child's memory stood after a number of turns. */
export interface FootprintSample {
  turns: number;
  rssMb: number;
  heapUsedMb: number;
  heapTotalMb: number;
  externalMb: number;
}

export interface FootprintReport {
  samples: FootprintSample[];
  /** Conversations with a queue entry left once every turn replied (must be 0). */
  activeConversations: number;
  inFlight: number;
}

const CONCURRENT_CONVERSATIONS = 20;
const SAMPLES = 4;

// Entry of the footprint child: argv = model URL, turns, conversations. Prints one FootprintReport line.
async function main(): Promise<void> {
  const [modelUrl, turnsArg, conversationsArg] = process.argv.slice(2);
  const turns = Number(turnsArg);
  const conversations = Number(conversationsArg);
  const bench = await startBenchApp(modelUrl!);
  const samples = [sample(0)];
  // Worker w takes conversations w, w + 20, w + 40, ...: every conversation gets turns, none two at once.
  const pick = (worker: number, index: number) => `conversation-${(worker + ((index * CONCURRENT_CONVERSATIONS) % conversations)) % conversations}`;
  const perSample = turns / SAMPLES;
  for (let done = 0; done < turns; done += perSample) {
    await runLoad((conversation) => subjectTurn(bench.app, conversation), {
      turns: perSample,
      width: CONCURRENT_CONVERSATIONS,
      conversation: (worker, index) => pick(worker, index + done / CONCURRENT_CONVERSATIONS),
    });
    samples.push(sample(done + perSample));
  }
  const report: FootprintReport = {
    samples,
    activeConversations: bench.app.runner.activeConversations,
    inFlight: bench.app.runner.inFlight,
  };
  await bench.close();
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

function sample(turns: number): FootprintSample {
  globalThis.gc?.();
  const usage = process.memoryUsage();
  return {
    turns,
    rssMb: toMb(usage.rss),
    heapUsedMb: toMb(usage.heapUsed),
    heapTotalMb: toMb(usage.heapTotal),
    externalMb: toMb(usage.external),
  };
}

main().catch((error) => {
  process.stderr.write(`the footprint child failed: ${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(1);
});

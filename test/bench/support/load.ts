import { quantile, sum } from "./stats.js";

export interface LoadFigures {
  turns: number;
  wallMs: number;
  turnsPerS: number;
  meanMs: number;
  p50Ms: number;
  p99Ms: number;
}

export interface LoadShape {
  turns: number;
  /** Conversations talking at once; each runs its turns one after the other. */
  width: number;
  /** Which conversation worker `worker` uses for its `index`-th turn (keep workers apart). */
  conversation?(worker: number, index: number): string;
  /** Collects the turn latencies here too (for pooling over several runs). */
  latencies?: number[];
}

/** Runs `shape.turns` turns as `shape.width` concurrent closed loops and times each turn. */
export async function runLoad(turn: (conversation: string) => Promise<void>, shape: LoadShape): Promise<LoadFigures> {
  const pick = shape.conversation ?? ((worker: number) => `conversation-${worker}`);
  const latencies: number[] = [];
  const perWorker = Math.ceil(shape.turns / shape.width);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: shape.width }, async (_, worker) => {
      for (let index = 0; index < perWorker; index++) {
        const t0 = performance.now();
        await turn(pick(worker, index));
        const ms = performance.now() - t0;
        latencies.push(ms);
        shape.latencies?.push(ms);
      }
    }),
  );
  const wallMs = performance.now() - started;
  return {
    turns: latencies.length,
    wallMs,
    turnsPerS: (latencies.length * 1000) / wallMs,
    meanMs: sum(latencies) / latencies.length,
    p50Ms: quantile(latencies, 0.5),
    p99Ms: quantile(latencies, 0.99),
  };
}

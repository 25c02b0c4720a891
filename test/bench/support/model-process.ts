import { firstJsonLine, spawnTs, stopChild } from "./child-process.js";

export interface ModelProcess {
  /** Base URL for the openai client; with `delayMs`, every answer takes that long. */
  baseUrl(delayMs?: number): string;
  /** Runs `work` while the model keeps every chat request body; resolves with those bodies, in arrival order. */
  recordBodies(work: () => Promise<void>): Promise<string[]>;
  close(): Promise<void>;
}

/** Starts the benchmark's fake model in its own process. */
export async function startModelProcess(): Promise<ModelProcess> {
  const child = spawnTs(new URL("./bench-model-process.ts", import.meta.url));
  const { origin } = await firstJsonLine<{ origin: string }>(child);
  return {
    baseUrl: (delayMs = 0) => (delayMs > 0 ? `${origin}/delay/${delayMs}/v1` : `${origin}/v1`),
    async recordBodies(work) {
      const started = await fetch(`${origin}/bodies/record`, { method: "POST" });
      if (started.status !== 204) throw new Error(`the bench model refused to record bodies: ${started.status}`);
      await work();
      return (await (await fetch(`${origin}/bodies`)).json()) as string[];
    },
    close: () => stopChild(child),
  };
}

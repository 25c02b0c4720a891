import { firstJsonLine, spawnTs, stopChild } from "./child-process.js";

export interface ModelProcess {
  /** Base URL for the openai client; with `delayMs`, every answer takes that long. */
  baseUrl(delayMs?: number): string;
  close(): Promise<void>;
}

/** Starts the benchmark's fake model in its own process. */
export async function startModelProcess(): Promise<ModelProcess> {
  const child = spawnTs(new URL("./bench-model-process.ts", import.meta.url));
  const { origin } = await firstJsonLine<{ origin: string }>(child);
  return {
    baseUrl: (delayMs = 0) => (delayMs > 0 ? `${origin}/delay/${delayMs}/v1` : `${origin}/v1`),
    close: () => stopChild(child),
  };
}

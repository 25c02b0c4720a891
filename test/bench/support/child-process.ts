import { spawn, type ChildProcessByStdio } from "node:child_process";
import { createRequire } from "node:module";
import type { Readable, Writable } from "node:stream";
import { fileURLToPath, pathToFileURL } from "node:url";

const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;

export type BenchChild = ChildProcessByStdio<Writable, Readable, null>;

/**
 * Runs a TypeScript entry in a fresh Node process. Its stderr is ours (progress and errors);
 * its stdout is read by the caller. Closing its stdin is how callers ask it to stop.
 */
export function spawnTs(entry: URL, args: string[] = [], nodeArgs: string[] = []): BenchChild {
  return spawn(process.execPath, [...nodeArgs, "--import", TSX_LOADER, fileURLToPath(entry), ...args], {
    stdio: ["pipe", "pipe", "inherit"],
  });
}

/** The first line the child prints on stdout, parsed as JSON. */
export function firstJsonLine<T>(child: BenchChild): Promise<T> {
  return new Promise((resolve, reject) => {
    let text = "";
    const onData = (chunk: Buffer) => {
      text += chunk.toString("utf8");
      const end = text.indexOf("\n");
      if (end === -1) return;
      child.stdout.off("data", onData);
      child.off("exit", onExit);
      try {
        resolve(JSON.parse(text.slice(0, end)) as T);
      } catch (error) {
        reject(new Error(`the child printed something that is not JSON: ${text.slice(0, 200)}`, { cause: error }));
      }
    };
    const onExit = (code: number | null) => reject(new Error(`the child exited (code ${code}) before printing its result`));
    child.stdout.on("data", onData);
    child.once("exit", onExit);
  });
}

/** Asks the child to stop by closing its stdin, and waits until it has exited. */
export function stopChild(child: BenchChild): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.stdin.end();
  });
}

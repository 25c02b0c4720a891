import { createInterface } from "node:readline";
import { firstJsonLine, spawnTs, stopChild } from "./child-process.js";
import type { LoadFigures } from "./load.js";

/** What the fakes process prints once it listens: how to point the bot at it. */
export interface FakesReady {
  /** `channelId`: the first of the channels the bot knows. */
  discord: { token: string; apiUrl: string; channelId: string };
  slack: { botToken: string; apiUrl: string };
}

export type FakesCommand = { id: number } & (
  | { op: "slack-target"; eventsUrl: string; signingSecret: string }
  /** `count` timed events one after the other, each at least `spacingMs` after the previous one began. */
  | { op: "events"; platform: "discord" | "slack"; count: number; spacingMs: number }
  /** `turns` events as `width` concurrent closed loops, one channel each. */
  | { op: "load"; platform: "discord" | "slack"; turns: number; width: number }
);

type WithoutId<T> = T extends unknown ? Omit<T, "id"> : never;

export interface PlatformFakes {
  ready: FakesReady;
  /** Tells the fakes where the bot's Slack receiver listens. */
  slackTarget(eventsUrl: string, signingSecret: string): Promise<void>;
  /** Latencies (ms, the fakes' clock) from each event sent to its answer received, and the REST calls the bot made meanwhile. */
  events(platform: "discord" | "slack", count: number, spacingMs: number): Promise<{ latencies: number[]; restCalls: number }>;
  load(platform: "discord" | "slack", turns: number, width: number): Promise<LoadFigures>;
  close(): Promise<void>;
}

/** Starts the fake Discord (with `channels` text channels) and the fake Slack in a process of their own. */
export async function startPlatformFakes(channels: number): Promise<PlatformFakes> {
  const child = spawnTs(new URL("./platform-fakes-process.ts", import.meta.url), [String(channels)]);
  const ready = await firstJsonLine<FakesReady>(child);
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  createInterface({ input: child.stdout }).on("line", (line) => {
    const answer = JSON.parse(line) as { id: number; result?: unknown; error?: string };
    const waiter = pending.get(answer.id);
    pending.delete(answer.id);
    if (answer.error !== undefined) waiter?.reject(new Error(`the platform fakes failed: ${answer.error}`));
    else waiter?.resolve(answer.result);
  });
  child.once("exit", (code) => {
    for (const waiter of pending.values()) waiter.reject(new Error(`the platform fakes exited (code ${code})`));
  });
  let nextId = 0;
  const send = <T>(command: WithoutId<FakesCommand>): Promise<T> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      child.stdin.write(`${JSON.stringify({ ...command, id })}\n`);
    });
  return {
    ready,
    slackTarget: (eventsUrl, signingSecret) => send({ op: "slack-target", eventsUrl, signingSecret }),
    events: (platform, count, spacingMs) => send({ op: "events", platform, count, spacingMs }),
    load: (platform, turns, width) => send({ op: "load", platform, turns, width }),
    close: () => stopChild(child),
  };
}

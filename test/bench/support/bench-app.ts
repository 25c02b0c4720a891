import { mkdtempSync, rmSync } from "node:fs";
import { devNull, tmpdir } from "node:os";
import { join } from "node:path";
import { createApp, type App } from "../../../src/app.js";
import { loadConfig } from "../../../src/config/env.js";
import { createLogger } from "../../../src/log.js";
import type { TurnReply, TurnRequest, TurnView } from "../../../src/runner/types.js";
import { ANSWER, QUESTION, STEPS_PER_TURN } from "./turn-script.js";

export interface BenchApp {
  app: App;
  dir: string;
  close(): Promise<void>;
}

/**
 * The real app as `npm start` builds it (createApp, SQLite file, info-level JSON logging), with
 * the model at `modelUrl` and logs written to the null device instead of stderr.
 */
export async function startBenchApp(modelUrl: string, env: Record<string, string> = {}): Promise<BenchApp> {
  const dir = mkdtempSync(join(tmpdir(), "agent-bot-bench-"));
  const config = loadConfig({
    OPENAI_BASE_URL: modelUrl,
    DATABASE_PATH: join(dir, "bot.sqlite"),
    CURRENCY_RATES_URL: "http://127.0.0.1:9/unreachable",
    // Limits are policy, not cost: the checks still run on every turn, but never refuse one here.
    RATE_LIMIT_PER_USER: "1000000000",
    MAX_QUEUED_TURNS: "1000000000",
    // Parts 1–5 compare whole turns with a non-streaming floor; the streaming part turns this on.
    STREAM_ANSWERS: "false",
    ...env,
  });
  const app = await createApp(config, createLogger("info", devNull));
  return {
    app,
    dir,
    async close() {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function benchRequest(conversation: string): TurnRequest {
  return {
    platform: "bench",
    workspaceId: "w1",
    channelId: conversation,
    userId: "u1",
    userName: "alice",
    text: QUESTION,
  };
}

/** Counts what a user would see, so a turn that went wrong stops the benchmark instead of counting. */
class CheckingSink implements TurnView {
  steps = 0;
  step(): void {
    this.steps++;
  }
  finish(): void {}
}

/** One full turn through the runner; throws unless it ended with the scripted answer after both tool steps. */
export async function subjectTurn(app: App, conversation: string): Promise<void> {
  const sink = new CheckingSink();
  const reply = await app.runner.submit(benchRequest(conversation), sink);
  checkReply(reply, sink.steps);
}

function checkReply(reply: TurnReply, steps: number): void {
  if (reply.status !== "answered" || reply.text !== ANSWER || steps !== STEPS_PER_TURN) {
    throw new Error(`a benchmark turn went wrong: ${reply.status}/${reply.outcome} "${reply.text}" after ${steps} steps`);
  }
}

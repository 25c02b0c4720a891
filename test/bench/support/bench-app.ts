import { mkdtempSync, rmSync } from "node:fs";
import { devNull, tmpdir } from "node:os";
import { join } from "node:path";
import type { App } from "../../../src/app.js";
import type { TurnRequest } from "../../../src/runner/types.js";
import type { TurnReply, TurnView } from "../../../src/contract/turn-view.js";
import { benchBotSettings } from "./bench-settings.js";
import { builtBot } from "./built-bot.js";
import { ANSWER, QUESTION, STEPS_PER_TURN } from "./turn-script.js";

export interface BenchApp {
  app: App;
  dir: string;
  close(): Promise<void>;
}

/**
 * The real app as `npm start` builds it (createApp, SQLite file, info-level JSON logging), with
 * the model at `modelUrl` and logs written to the null device instead of stderr. Its code is the
 * bundle `npm run build` makes (built-bot.ts), as production runs it.
 */
export async function startBenchApp(modelUrl: string, env: Record<string, string> = {}): Promise<BenchApp> {
  const { createApp, loadConfig, createLogger } = await builtBot();
  const dir = mkdtempSync(join(tmpdir(), "agent-bot-bench-"));
  // Parts 1–5 compare whole turns with a non-streaming floor; the streaming part turns streaming on in `env`.
  const config = loadConfig({ ...benchBotSettings(modelUrl, dir), ...env });
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

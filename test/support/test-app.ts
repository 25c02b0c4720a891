import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp, type App, type AppOptions } from "../../src/app.js";
import { loadConfig } from "../../src/config/env.js";
import { silentLogger, type Logger } from "../../src/log.js";
import type { StepEvent, TurnReply, TurnRequest, TurnView } from "../../src/runner/types.js";
import { Store } from "../../src/store/store.js";
import { FakeOpenAI } from "../fakes/fake-openai.js";

export interface TestApp {
  app: App;
  model: FakeOpenAI;
  dir: string;
  dbPath: string;
  /** Builds a second app on the same database, as a restarted process would. */
  restart(): App;
  close(): Promise<void>;
}

/** A real app (real openai client, real SQLite file) talking to a fake model on 127.0.0.1. */
export async function startTestApp(env: Record<string, string> = {}, options: AppOptions = {}, logger: Logger = silentLogger()): Promise<TestApp> {
  const model = await FakeOpenAI.start();
  const dir = mkdtempSync(join(tmpdir(), "agent-bot-test-"));
  const dbPath = join(dir, "bot.sqlite");
  const config = loadConfig({
    OPENAI_BASE_URL: model.url,
    OPENAI_MAX_RETRIES: "0",
    DATABASE_PATH: dbPath,
    CURRENCY_RATES_URL: "http://127.0.0.1:9/unreachable",
    // Platform tests follow each step from "running" to its result; the default delay has tests of its own.
    STEP_START_DELAY_MS: "0",
    // The knowledge tools are on by default: no test may reach the real services by accident.
    WIKIPEDIA_API_URL: "http://127.0.0.1:9/unreachable/{lang}",
    ARXIV_API_URL: "http://127.0.0.1:9/unreachable",
    DUCKDUCKGO_URL: "http://127.0.0.1:9/unreachable",
    // Nor the platforms' real file hosts: a recorded payload's file stays off the allowed host.
    DISCORD_CDN_URL: "http://127.0.0.1:9/unreachable-cdn/",
    SLACK_FILES_URL: "http://127.0.0.1:9/unreachable-files/",
    ...env,
  });
  const apps: App[] = [createApp(config, logger, options)];
  return {
    app: apps[0]!,
    model,
    dir,
    dbPath,
    restart() {
      apps.at(-1)!.store.close();
      const next = createApp(config, logger, { ...options, store: Store.open(dbPath) });
      apps.push(next);
      return next;
    },
    async close() {
      for (const app of apps) app.store.close();
      await model.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A view that remembers what a user would have seen, in order. */
export class RecordingSink implements TurnView {
  readonly events: (StepEvent | { type: "reply"; reply: TurnReply })[] = [];

  step(event: StepEvent): void {
    this.events.push(event);
  }

  finish(reply: TurnReply): void {
    // An ignored turn shows nothing.
    if (reply.status !== "ignored") this.events.push({ type: "reply", reply });
  }

  get steps(): StepEvent[] {
    return this.events.filter((event): event is StepEvent => event.type !== "reply");
  }

  get replies(): TurnReply[] {
    return this.events.flatMap((event) => (event.type === "reply" ? [event.reply] : []));
  }
}

export function request(text: string, overrides: Partial<TurnRequest> = {}): TurnRequest {
  return {
    platform: "test",
    workspaceId: "w1",
    channelId: "c1",
    userId: "u1",
    userName: "alice",
    text,
    ...overrides,
  };
}

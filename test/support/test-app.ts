import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp, type App, type AppOptions } from "../../src/app.js";
import { loadConfig } from "../../src/config/env.js";
import { silentLogger, type Logger } from "../../src/log.js";
import type { TurnRequest } from "../../src/runner/types.js";
import type { StepEvent, TurnReply, TurnView } from "../../src/contract/turn-view.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { FakeOpenAI } from "../fakes/fake-openai.js";

export interface TestApp {
  app: App;
  model: FakeOpenAI;
  dir: string;
  dbPath: string;
  /** The app's SQLite store, whose `db` tests read rows through (the latest after a restart). */
  store: SqliteStore;
  /** Builds a second app on the same database, as a restarted process would. */
  restart(): Promise<App>;
  close(): Promise<void>;
}

/** A real app (real openai client, real SQLite file) talking to a fake model on 127.0.0.1. */
export async function startTestApp(
  env: Record<string, string> = {},
  options: Omit<AppOptions, "store"> = {},
  logger: Logger = silentLogger(),
): Promise<TestApp> {
  const model = await FakeOpenAI.start();
  const dir = mkdtempSync(join(tmpdir(), "agent-bot-test-"));
  const defaultPath = join(dir, "bot.sqlite");
  const config = loadConfig({
    OPENAI_BASE_URL: model.url,
    OPENAI_MAX_RETRIES: "0",
    DATABASE_PATH: defaultPath,
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
    // Summaries add model calls after answers; tests that count the model's requests see none unless they turn it on.
    MEMORY_SUMMARY: "off",
    ...env,
  });
  const dbPath = config.DATABASE_PATH;
  const first = SqliteStore.open(dbPath);
  const apps: App[] = [await createApp(config, logger, { ...options, store: first })];
  const test: TestApp = {
    app: apps[0]!,
    model,
    dir,
    dbPath,
    store: first,
    async restart() {
      await apps.at(-1)!.close();
      test.store = SqliteStore.open(dbPath);
      const next = await createApp(config, logger, { ...options, store: test.store });
      apps.push(next);
      return next;
    },
    async close() {
      for (const app of apps) await app.close();
      await model.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return test;
}

/** The raw SQLite connection under an app's store, for tests that read the rows themselves. */
export function dbOf(app: App) {
  if (!(app.store instanceof SqliteStore)) throw new Error("this app's store is not SQLite");
  return app.store.db;
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

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createApp, type App } from "../../src/app.js";
import { loadConfig } from "../../src/config/env.js";
import { silentLogger } from "../../src/log.js";
import type { TurnReply, TurnView } from "../../src/contract/turn-view.js";
import { PostgresStore } from "../../src/store/postgres/postgres-store.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import type { Store } from "../../src/store/store.js";
import { FakeOpenAI, reply, type RecordedRequest } from "../fakes/fake-openai.js";
import { createTestDatabase, postgresAvailability, queryRows } from "../support/postgres.js";
import { TcpProxy } from "../support/tcp-proxy.js";
import { request } from "../support/test-app.js";

/**
 * A database that goes away for a moment while a turn ends, and comes back: PostgreSQL behind a TCP
 * proxy that drops every connection and refuses new ones; SQLite with every write failing
 * (query_only, as a read-only or full disk does). Two bot processes share the database. Once the
 * store answers again, the conversation goes on within seconds, and what was answered is in memory.
 */
const availability = await postgresAvailability();
const OUTAGE_MS = 1_500;
/** The conversation's next message must be answered this soon after the store is back (it took 1,680 s). */
const SOON_MS = 15_000;

interface Bed {
  apps: App[];
  model: FakeOpenAI;
  /** The first process's store goes away (PostgreSQL: for both, they share the proxy). */
  cut(): void;
  resume(): void;
  rows(sql: string): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

async function appsOn(stores: Store[], model: FakeOpenAI, dir: string): Promise<App[]> {
  const config = loadConfig({
    OPENAI_BASE_URL: model.url,
    OPENAI_MAX_RETRIES: "0",
    DATABASE_PATH: join(dir, "unused.sqlite"),
    CURRENCY_RATES_URL: "http://127.0.0.1:9/unreachable",
    STEP_START_DELAY_MS: "0",
  });
  const apps: App[] = [];
  for (const store of stores) apps.push(await createApp(config, silentLogger(), { store }));
  return apps;
}

const engines: { name: string; skip?: string; open(): Promise<Bed> }[] = [
  {
    name: "SQLite",
    async open() {
      const model = await FakeOpenAI.start();
      const dir = mkdtempSync(join(tmpdir(), "agent-bot-outage-"));
      const path = join(dir, "bot.sqlite");
      const stores = [SqliteStore.open(path), SqliteStore.open(path)];
      const apps = await appsOn(stores, model, dir);
      return {
        apps,
        model,
        cut: () => stores[0]!.db.pragma("query_only = ON"),
        resume: () => stores[0]!.db.pragma("query_only = OFF"),
        rows: async (sql) => stores[1]!.db.prepare(sql).all() as Record<string, unknown>[],
        async close() {
          for (const app of apps) await app.close();
          await model.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: "PostgreSQL",
    skip: availability.available ? undefined : availability.reason,
    async open() {
      const model = await FakeOpenAI.start();
      const dir = mkdtempSync(join(tmpdir(), "agent-bot-outage-"));
      const database = await createTestDatabase("agent_bot_outage");
      const server = new URL(database.url);
      const proxy = await TcpProxy.start({ host: server.hostname, port: Number(server.port || 5432) });
      const stores: Store[] = [];
      for (let i = 0; i < 2; i++)
        stores.push(await PostgresStore.open({ url: proxy.urlFor(database.url), poolSize: 4, timeoutMs: 5_000, logger: silentLogger() }));
      const apps = await appsOn(stores, model, dir);
      return {
        apps,
        model,
        cut: () => proxy.cut(),
        resume: () => proxy.resume(),
        rows: (sql) => queryRows(database.url, sql),
        async close() {
          proxy.resume();
          for (const app of apps) await app.close();
          await proxy.close();
          await model.close();
          await database.drop();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  },
];

const lastQuestion = (recorded: RecordedRequest): string => recorded.body.messages.at(-1).content;
const history = (recorded: RecordedRequest): string[] => recorded.body.messages.slice(1, -1).map((m: { content: string }) => m.content);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

/** A view whose showing of the reply waits for `open()`: the store goes away while the answer is posted. */
function gatedView() {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const replies: TurnReply[] = [];
  const view: TurnView = {
    step: () => {},
    finish: async (reply) => {
      replies.push(reply);
      await gate;
    },
  };
  return { view, replies, open };
}

const sink = () => ({ step: () => {}, finish: () => {} }) satisfies TurnView;

for (const engine of engines) {
  describe.skipIf(engine.skip !== undefined)(`a short store outage while a turn ends (${engine.name}${engine.skip ? `; not run: ${engine.skip}` : ""})`, () => {
    let bed: Bed | undefined;
    afterEach(async () => {
      await bed?.close();
      bed = undefined;
    });

    it("records the turn that ended during the outage once the store is back, and answers it", async () => {
      bed = await engine.open();
      const b = bed;
      let answer!: () => void;
      const answered = new Promise<void>((resolve) => (answer = resolve));
      // a tool step first, so the closing has steps and tokens to keep as well as the exchange
      b.model.script(reply.toolCalls({ name: "calculator", args: { expression: "6*7" } }));
      b.model.otherwise(async () => {
        await answered;
        return { kind: "message", content: "answer to while it drops", usage: { prompt_tokens: 30, completion_tokens: 12, total_tokens: 42 } };
      });
      const turn = b.apps[0]!.runner.submit(request("while it drops"), sink());
      await until(() => b.model.chatRequests.length === 2, "the model's last call");
      b.cut();
      answer();
      await sleep(OUTAGE_MS);
      b.resume();
      expect(await turn).toMatchObject({ status: "answered", text: "answer to while it drops" });
      const messages = await b.rows(`SELECT text FROM messages ORDER BY id`);
      expect(messages.map((row) => row.text)).toEqual(["while it drops", "answer to while it drops"]);
      // 15 tokens for the tool call (the fake's default), 42 for the answer
      expect(await b.rows(`SELECT status, total_tokens FROM turns`)).toEqual([{ status: "answered", total_tokens: 57 }]);
      expect(await b.rows(`SELECT tool, output FROM turn_steps`)).toEqual([{ tool: "calculator", output: "42" }]);
      expect(await b.rows(`SELECT tokens FROM token_usage_daily`)).toEqual([{ tokens: 57 }]);
      // Given up after the answer was shown, without the reply waiting for it (SQLite: with the end of the event loop's pass).
      await until(async () => (await b.rows(`SELECT id FROM turn_queue`)).length === 0, "the place to be given up");
    }, 60_000);

    it("gives the place up once the store is back: the next message, in another process, is answered within seconds and remembers the first", async () => {
      bed = await engine.open();
      const b = bed;
      b.model.otherwise((recorded) => ({ kind: "message", content: `answer to ${lastQuestion(recorded)}` }));
      const first = gatedView();
      const turn = b.apps[0]!.runner.submit(request("first"), first.view);
      await until(() => first.replies.length === 1, "the first answer to be posted");
      // committed, and being posted: the database goes away before the place is given up
      b.cut();
      first.open();
      expect(await turn).toMatchObject({ status: "answered" });
      await sleep(OUTAGE_MS);
      b.resume();
      const back = Date.now();

      const next = await b.apps[1]!.runner.submit(request("second"), sink());
      expect(next).toMatchObject({ status: "answered", text: "answer to second" });
      expect(Date.now() - back).toBeLessThan(SOON_MS);
      const asked = b.model.chatRequests.find((recorded) => lastQuestion(recorded) === "second")!;
      expect(history(asked)).toEqual(["first", "answer to first"]);
      await until(async () => (await b.rows(`SELECT id FROM turn_queue`)).length === 0, "no place left in line");
    }, 60_000);

    it("keeps trying to give a place up while the store is away, and stops at shutdown", async () => {
      bed = await engine.open();
      const b = bed;
      b.model.otherwise((recorded) => ({ kind: "message", content: `answer to ${lastQuestion(recorded)}` }));
      const [app] = b.apps;
      const queue = app!.store.queue;
      const leave = queue.leave.bind(queue);
      let attempts = 0;
      queue.leave = (ticket) => {
        attempts++;
        return leave(ticket);
      };
      const first = gatedView();
      const turn = app!.runner.submit(request("before the drop"), first.view);
      await until(() => first.replies.length === 1, "the answer to be posted");
      b.cut();
      first.open();
      await turn;
      await until(() => attempts >= 3, "two retries of the release");
      await app!.runner.shutdown(1_000);
      const atShutdown = attempts;
      // after the third attempt the next is due within 0.8 s (0.2 s doubling): none comes after shutdown
      await sleep(1_500);
      expect(attempts).toBe(atShutdown);
      b.resume();
    }, 60_000);

    it("drops a place of its own process it no longer holds at once: its own next message is answered within seconds", async () => {
      bed = await engine.open();
      const b = bed;
      b.model.otherwise((recorded) => ({ kind: "message", content: `answer to ${lastQuestion(recorded)}` }));
      // A place taken whose turn this process no longer runs (taking it failed after the commit, say).
      const [app] = b.apps;
      const lost = await app!.store.queue.claim({ conversation: request("x"), instance: app!.lease.run.id, order: "1", addressed: true });
      expect("placed" in lost).toBe(true);
      const started = Date.now();
      const next = await app!.runner.submit(request("after the lost place"), sink());
      expect(next).toMatchObject({ status: "answered", text: "answer to after the lost place" });
      expect(Date.now() - started).toBeLessThan(SOON_MS);
      await until(async () => (await b.rows(`SELECT id FROM turn_queue`)).length === 0, "both places to be gone");
    }, 60_000);

    it("keeps a place of its own process taken with a message's claim and still being looked up: the later message waits for it", async () => {
      bed = await engine.open();
      const b = bed;
      b.model.otherwise((recorded) => ({ kind: "message", content: `answer to ${lastQuestion(recorded)}` }));
      const [app] = b.apps;
      const claimOf = (order: string) => app!.runner.claim({ conversation: request("x"), instance: app!.lease.run.id, order, addressed: true });
      // The earlier message is claimed first and then looked up (the asker, the settings) for a while;
      // the later one, claimed meanwhile, is admitted at once and must not drop the earlier's place.
      const earlier = await claimOf("100");
      const later = await claimOf("200");
      if (!("placed" in earlier) || !("placed" in later)) throw new Error("not placed");
      const second = await app!.runner.accept(request("second"), sink(), { ticket: later.placed });
      // long enough for the later turn's wait to look at the line many times (SQLite: every 5-100 ms; PostgreSQL: at once, then on wake-ups)
      await sleep(500);
      const first = await app!.runner.accept(request("first"), sink(), { ticket: earlier.placed });
      expect(await first.reply).toMatchObject({ status: "answered", text: "answer to first" });
      expect(await second.reply).toMatchObject({ status: "answered", text: "answer to second" });
      expect(b.model.chatRequests.map(lastQuestion)).toEqual(["first", "second"]);
      expect(history(b.model.chatRequests[1]!)).toEqual(["first", "answer to first"]);
    }, 60_000);
  });
}

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp, type App } from "../../src/app.js";
import { loadConfig } from "../../src/config/env.js";
import { silentLogger } from "../../src/log.js";
import { PostgresStore } from "../../src/store/postgres/postgres-store.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import type { Store } from "../../src/store/store.js";
import { FakeOpenAI, reply } from "../fakes/fake-openai.js";
import { createTestDatabase, postgresAvailability } from "../support/postgres.js";
import { RecordingSurface } from "../support/recording-surface.js";

/**
 * Three bot processes (three apps, each with its own store connection and its own platform
 * connection) on one SQLite file and on one PostgreSQL database: every due time runs once.
 */
const availability = await postgresAvailability();

interface Engine {
  name: string;
  unavailable?: string;
  open(): Promise<{ stores: () => Promise<Store>; close(): Promise<void> }>;
}

const engines: Engine[] = [
  {
    name: "one SQLite file",
    async open() {
      const dir = mkdtempSync(join(tmpdir(), "agent-bot-schedules-"));
      return { stores: async () => SqliteStore.open(join(dir, "bot.sqlite")), close: async () => rmSync(dir, { recursive: true, force: true }) };
    },
  },
  {
    name: "PostgreSQL",
    unavailable: availability.available ? undefined : availability.reason,
    async open() {
      const database = await createTestDatabase();
      return {
        stores: () => PostgresStore.open({ url: database.url, poolSize: 4, timeoutMs: 10_000, logger: silentLogger() }),
        close: () => database.drop(),
      };
    },
  },
];

async function waitFor<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

for (const engine of engines) {
  describe.skipIf(engine.unavailable !== undefined)(`three processes on ${engine.name}${engine.unavailable ? ` (not run: ${engine.unavailable})` : ""}`, () => {
    let model: FakeOpenAI;
    let database: Awaited<ReturnType<Engine["open"]>>;
    const apps: App[] = [];
    const surfaces: RecordingSurface[] = [];
    beforeAll(async () => {
      model = await FakeOpenAI.start();
      model.otherwise(reply.text("Done."));
      database = await engine.open();
      const config = loadConfig({
        OPENAI_BASE_URL: model.url,
        OPENAI_MAX_RETRIES: "0",
        DATABASE_PATH: "unused",
        CURRENCY_RATES_URL: "http://127.0.0.1:9/unreachable",
      });
      for (let index = 0; index < 3; index++) {
        const app = await createApp({ ...config, INSTANCE_ID: `p${index}` }, silentLogger(), { store: await database.stores() });
        const surface = new RecordingSurface();
        app.links.connect({ surface, allowDms: false, hasRoles: false, commandName: (group) => `/${group}`, roleNames: { admin: "", moderator: "" } });
        apps.push(app);
        surfaces.push(surface);
      }
    }, 60_000);
    afterAll(async () => {
      for (const app of apps) await app.close();
      await database?.close();
      await model?.close();
    });

    it("runs each of eight due times once, whichever process claims it", async () => {
      const store = apps[0]!.store;
      const now = Date.now();
      const ids = Array.from({ length: 8 }, (_, index) => `task${index}`);
      for (const [index, id] of ids.entries()) {
        await store.schedules.create({
          id,
          platform: "test",
          workspaceId: "w1",
          channelId: `c${index}`,
          creator: `u${index}`,
          whenText: "in 1 second",
          timeZone: "UTC",
          task: `Task ${index}`,
          // Half are due already (all three processes see them at the same wake), half a second from now.
          nextDue: index % 2 === 0 ? now - 100 : now + 1_000 + (index % 3) * 10,
          createdAt: now,
        });
      }
      // Every process reads the tasks again now (as each does at least every minute).
      for (const app of apps) app.scheduler.changed();
      const headers = () => surfaces.flatMap((surface) => surface.calls.filter((call) => call.text?.startsWith("⏰")));
      await waitFor("eight runs", async () => {
        const runs = await Promise.all(ids.map((id) => store.schedules.history(id, 10)));
        return runs.every((history) => history.length === 1 && history[0]?.status === "ok") ? runs : undefined;
      });
      // A process that would have lost track could still post: give them all one more wake.
      for (const app of apps) app.scheduler.changed();
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(headers()).toHaveLength(8);
      expect(new Set(headers().map((call) => call.to?.location.channelId)).size).toBe(8);
      expect(model.chatRequests).toHaveLength(8);
      for (const id of ids) expect(await store.schedules.get(id)).toMatchObject({ status: "done" });
    }, 60_000);
  });
}

import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, test, type TestAPI } from "vitest";
import { silentLogger } from "../../src/log.js";
import { PostgresStore } from "../../src/store/postgres/postgres-store.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import type { Store } from "../../src/store/store.js";
import { createTestDatabase, postgresAvailability, queryRows, type PostgresAvailability } from "../support/postgres.js";

/** One database several stores share, as several bot processes would. */
export interface SharedDatabase {
  stores: Store[];
  /** Reads rows with plain SQL both engines understand (no parameters). */
  rows(sql: string): Promise<Record<string, unknown>[]>;
  /** Runs statements with plain SQL, outside every store (to take a schema back, say). */
  run(sql: string): Promise<void>;
  /** Opens one more store on the database (applying the migrations not recorded yet), closed with the others. */
  open(): Promise<Store>;
  close(): Promise<void>;
}

export interface Engine {
  name: string;
  /** Set when the engine cannot run here (no PostgreSQL server): the suite reports itself as not run. */
  unavailable?: string;
  /** Opens `count` stores at once on a new, empty database. */
  openShared(count: number): Promise<SharedDatabase>;
}

const sqliteEngine: Engine = {
  name: "SQLite",
  async openShared(count) {
    const dir = mkdtempSync(join(tmpdir(), "agent-bot-contract-"));
    const path = join(dir, "bot.sqlite");
    const stores = await Promise.all(Array.from({ length: count }, async () => SqliteStore.open(path)));
    return {
      stores,
      async rows(sql) {
        const db = new Database(path, { readonly: true });
        try {
          return db.prepare(sql).all() as Record<string, unknown>[];
        } finally {
          db.close();
        }
      },
      async run(sql) {
        const db = new Database(path);
        try {
          db.exec(sql);
        } finally {
          db.close();
        }
      },
      async open() {
        const store = SqliteStore.open(path);
        stores.push(store);
        return store;
      },
      async close() {
        for (const store of stores) await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};

function postgresEngine(availability: PostgresAvailability): Engine {
  return {
    name: "PostgreSQL",
    unavailable: availability.available ? undefined : availability.reason,
    async openShared(count) {
      const database = await createTestDatabase();
      const open = () => PostgresStore.open({ url: database.url, poolSize: 4, timeoutMs: 10_000, logger: silentLogger() });
      const stores: Store[] = await Promise.all(Array.from({ length: count }, open));
      return {
        stores,
        rows: (sql) => queryRows(database.url, sql),
        async run(sql) {
          await queryRows(database.url, sql);
        },
        async open() {
          const store = await open();
          stores.push(store);
          return store;
        },
        async close() {
          for (const store of stores) await store.close();
          await database.drop();
        },
      };
    },
  };
}

/** A suite's title; one that cannot run here says why, so the summary shows it as not run. */
const titleOf = (title: string, engine: Engine) => (engine.unavailable ? `${title} (not run: ${engine.unavailable})` : title);

/** What a store contract test may ask its context for: the suite's database and its stores. */
export interface StoreFixtures {
  /** The suite's database, opened by the first test that asks and shared by the suite's tests. */
  shared: SharedDatabase;
  /** Its stores, one per bot process sharing it. */
  stores: Store[];
  /** The first, second and third of them. */
  a: Store;
  b: Store;
  c: Store;
}

let bothEngines: Promise<Engine[]> | undefined;
/** SQLite, and PostgreSQL where a server answers (asked once per test file). */
const enginesHere = (): Promise<Engine[]> => (bothEngines ??= postgresAvailability().then((availability) => [sqliteEngine, postgresEngine(availability)]));

/**
 * A store contract suite, once per engine (SQLite and PostgreSQL): `body` gets a test function whose
 * context holds the suite's database (`async ({ a, b, shared }) => …`), opened with `storeCount`
 * stores by the first test that uses it, shared by the suite's tests and closed after them. A suite
 * whose engine cannot run here (no PostgreSQL server) is skipped with the reason in its title.
 */
export async function describeOnEngines(
  title: (engine: Engine) => string,
  storeCount: number,
  body: (it: TestAPI<StoreFixtures>, engine: Engine) => void,
): Promise<void> {
  for (const engine of await enginesHere()) {
    describe.skipIf(engine.unavailable !== undefined)(titleOf(title(engine), engine), () => {
      let opened: Promise<SharedDatabase> | undefined;
      afterAll(async () => {
        await (await opened)?.close();
      });
      const nth = (shared: SharedDatabase, index: number): Store => {
        const store = shared.stores[index];
        if (!store) throw new Error(`this suite opens ${storeCount} store(s), not ${index + 1}`);
        return store;
      };
      const it = test.extend<StoreFixtures>({
        // biome-ignore lint/correctness/noEmptyPattern: Vitest reads what a fixture needs from its first parameter's pattern.
        shared: async ({}, use) => use(await (opened ??= engine.openShared(storeCount))),
        stores: async ({ shared }, use) => use(shared.stores),
        a: async ({ shared }, use) => use(nth(shared, 0)),
        b: async ({ shared }, use) => use(nth(shared, 1)),
        c: async ({ shared }, use) => use(nth(shared, 2)),
      });
      body(it, engine);
    });
  }
}

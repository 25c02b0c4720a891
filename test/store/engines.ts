import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { silentLogger } from "../../src/log.js";
import { PostgresStore } from "../../src/store/postgres/postgres-store.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import type { Store } from "../../src/store/store.js";
import { createTestDatabase, queryRows, type PostgresAvailability } from "../support/postgres.js";

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

export const sqliteEngine: Engine = {
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

export function postgresEngine(availability: PostgresAvailability): Engine {
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
export const titleOf = (title: string, engine: Engine) => (engine.unavailable ? `${title} (not run: ${engine.unavailable})` : title);

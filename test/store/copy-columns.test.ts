import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "../../src/log.js";
import { COPIED_TABLES, NOT_COPIED } from "../../src/store/postgres/copy-from-sqlite.js";
import { PostgresStore } from "../../src/store/postgres/postgres-store.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { createTestDatabase, postgresAvailability, queryRows } from "../support/postgres.js";

const availability = await postgresAvailability();

type Schema = Map<string, string[]>;

/** Every table of a new SQLite file, with its columns, as the migrations leave it. */
async function sqliteSchema(): Promise<Schema> {
  const dir = mkdtempSync(join(tmpdir(), "agent-bot-copy-columns-"));
  try {
    const path = join(dir, "bot.sqlite");
    await (await SqliteStore.open(path)).close();
    const db = new Database(path, { readonly: true });
    try {
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").pluck().all() as string[];
      return new Map(tables.map((table) => [table, db.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().all(table) as string[]]));
    } finally {
      db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Every table of a new PostgreSQL database, with its columns, as the migrations leave it. */
async function postgresSchema(): Promise<Schema> {
  const database = await createTestDatabase();
  try {
    await (await PostgresStore.open({ url: database.url, poolSize: 1, timeoutMs: 10_000, logger: silentLogger() })).close();
    const rows = await queryRows(database.url, "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public'");
    const schema: Schema = new Map();
    for (const row of rows) schema.set(String(row.table_name), [...(schema.get(String(row.table_name)) ?? []), String(row.column_name)]);
    return schema;
  } finally {
    await database.drop();
  }
}

const sorted = (names: Iterable<string>) => [...new Set(names)].sort();

describe.skipIf(!availability.available)(
  `src/store/postgres/copy-from-sqlite.ts: the copy knows every table and column of both schemas${availability.available ? "" : ` (not run: ${availability.reason})`}`,
  () => {
    let schemas: { sqlite: Schema; postgres: Schema };
    beforeAll(async () => {
      schemas = { sqlite: await sqliteSchema(), postgres: await postgresSchema() };
    });

    it("copies every table of either schema, or says why not", () => {
      const copied = COPIED_TABLES.map((table) => table.name);
      const unaccounted = sorted([...schemas.sqlite.keys(), ...schemas.postgres.keys()]).filter((table) => !copied.includes(table) && !(table in NOT_COPIED));
      expect(unaccounted, "tables neither in COPIED_TABLES nor in NOT_COPIED").toEqual([]);
      expect(
        sorted(Object.keys(NOT_COPIED).filter((table) => !schemas.sqlite.has(table) && !schemas.postgres.has(table))),
        "NOT_COPIED names no table",
      ).toEqual([]);
    });

    it("copies each copied table's columns as both engines have them: every column copied, or left with a reason", () => {
      for (const table of COPIED_TABLES) {
        const sqlite = schemas.sqlite.get(table.name) ?? [];
        const postgres = schemas.postgres.get(table.name) ?? [];
        const left = Object.keys(table.left ?? {});
        expect({ table: table.name, columns: sorted(table.columns) }).toEqual({
          table: table.name,
          columns: sorted(sqlite.filter((column) => !left.includes(column))),
        });
        expect({ table: table.name, columns: sorted(table.columns) }).toEqual({
          table: table.name,
          columns: sorted(postgres.filter((column) => !left.includes(column))),
        });
        expect({ table: table.name, leftNamesNoColumn: left.filter((column) => !sqlite.includes(column) && !postgres.includes(column)) }).toEqual({
          table: table.name,
          leftNamesNoColumn: [],
        });
      }
    });
  },
);

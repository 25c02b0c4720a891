import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The numbered schema files, one folder per engine: migrations/sqlite/ and migrations/postgres/. */
export const MIGRATIONS_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../migrations");

const MIGRATION_FILE = /^(\d+)_[\w-]+\.sql$/;

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** The folder's migrations, by version. */
export function readMigrations(dir: string): Migration[] {
  return readdirSync(dir)
    .flatMap((name) => {
      const match = MIGRATION_FILE.exec(name);
      return match ? [{ version: Number(match[1]), name, sql: readFileSync(join(dir, name), "utf8") }] : [];
    })
    .sort((a, b) => a.version - b.version);
}

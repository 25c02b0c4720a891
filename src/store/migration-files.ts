import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The nearest folder at or above `dir` with a package.json: the project's root, whether this
 * module runs as src/store/migration-files.ts or bundled into a file of dist/.
 */
export function packageRoot(dir: string): string {
  for (let current = dir; ; current = dirname(current)) {
    if (existsSync(join(current, "package.json"))) return current;
    if (dirname(current) === current) throw new Error(`no package.json in ${dir} or above it`);
  }
}

/** The numbered schema files, one folder per engine: migrations/sqlite/ and migrations/postgres/. */
export const MIGRATIONS_ROOT = join(packageRoot(dirname(fileURLToPath(import.meta.url))), "migrations");

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

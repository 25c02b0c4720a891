import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Db } from "./database.js";

const MIGRATION_FILE = /^(\d+)_[\w-]+\.sql$/;

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export function readMigrations(dir: string): Migration[] {
  return readdirSync(dir)
    .flatMap((name) => {
      const match = MIGRATION_FILE.exec(name);
      return match ? [{ version: Number(match[1]), name, sql: readFileSync(join(dir, name), "utf8") }] : [];
    })
    .sort((a, b) => a.version - b.version);
}

/**
 * Applies every migration newer than the recorded version, each in its own transaction
 * together with its record, so a crash mid-migration leaves the previous version intact.
 * Returns the names applied.
 */
export function applyMigrations(db: Db, dir: string): string[] {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER PRIMARY KEY,
    name       TEXT    NOT NULL,
    applied_at INTEGER NOT NULL
  )`);
  const applied = new Set(
    db.prepare("SELECT version FROM schema_migrations").pluck().all() as number[],
  );
  const record = db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)");
  const names: string[] = [];
  for (const migration of readMigrations(dir)) {
    if (applied.has(migration.version)) continue;
    db.transaction(() => {
      db.exec(migration.sql);
      record.run(migration.version, migration.name, Date.now());
    })();
    names.push(migration.name);
  }
  return names;
}

import type Database from "better-sqlite3";
import { readMigrations } from "../migration-files.js";

/**
 * Applies every migration newer than the recorded version, each in its own transaction
 * together with its record, so a crash mid-migration leaves the previous version intact.
 * Returns the names applied.
 */
export function applyMigrations(db: Database.Database, dir: string): string[] {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER PRIMARY KEY,
    name       TEXT    NOT NULL,
    applied_at INTEGER NOT NULL
  )`);
  const isApplied = db.prepare<[number], number>("SELECT 1 FROM schema_migrations WHERE version = ?").pluck();
  const record = db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)");
  const names: string[] = [];
  for (const migration of readMigrations(dir)) {
    if (isApplied.get(migration.version)) continue;
    // IMMEDIATE takes the write lock before the check, so two processes starting together
    // cannot both apply the same migration.
    const applied = db
      .transaction(() => {
        if (isApplied.get(migration.version)) return false;
        db.exec(migration.sql);
        record.run(migration.version, migration.name, Date.now());
        return true;
      })
      .immediate();
    if (applied) names.push(migration.name);
  }
  return names;
}

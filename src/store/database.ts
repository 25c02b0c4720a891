import Database from "better-sqlite3";
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { applyMigrations } from "./migrate.js";

export type Db = Database.Database;

export const MIGRATIONS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "../../migrations");

/**
 * Opens (creating if needed) the SQLite file, sets the pragmas every connection needs
 * and brings the schema up to date.
 */
export function openDatabase(path: string, migrationsDir = MIGRATIONS_DIR): Db {
  if (path !== ":memory:") mkdirSync(dirname(resolve(path)), { recursive: true });
  const db = new Database(path);
  // First, so that every later statement waits for another process's lock instead of failing.
  db.pragma("busy_timeout = 5000");
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("foreign_keys = ON");
  applyMigrations(db, migrationsDir);
  return db;
}

import Database from "better-sqlite3";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { applyMigrations } from "./migrate.js";
import { createPrivateFile, makePrivateFolder, restrictFiles } from "./private-files.js";

export type Db = Database.Database;

export const MIGRATIONS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "../../migrations/sqlite");

/**
 * Opens (creating if needed) the SQLite file, sets the pragmas every connection needs
 * and brings the schema up to date. A new folder is created 0700, the files 0600.
 */
export function openDatabase(path: string, migrationsDir = MIGRATIONS_DIR): Db {
  const onDisk = path !== ":memory:" && path !== "";
  if (onDisk) {
    makePrivateFolder(path);
    createPrivateFile(path);
  }
  const db = new Database(path);
  // First, so that every later statement waits for another process's lock instead of failing.
  db.pragma("busy_timeout = 5000");
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("foreign_keys = ON");
  if (onDisk) restrictFiles([path, `${path}-wal`, `${path}-shm`]);
  applyMigrations(db, migrationsDir);
  return db;
}

import Database from "better-sqlite3";
import { join } from "node:path";
import { MIGRATIONS_ROOT } from "../migration-files.js";
import { createPrivateFile, makePrivateFolder, restrictFiles } from "../private-files.js";
import { applyMigrations } from "./migrate.js";

export type Db = Database.Database;

export const SQLITE_MIGRATIONS = join(MIGRATIONS_ROOT, "sqlite");

/**
 * Opens (creating if needed) the SQLite file, sets the pragmas every connection needs
 * and brings the schema up to date. A new folder is created 0700, the files 0600.
 */
export function openDatabase(path: string, migrationsDir = SQLITE_MIGRATIONS): Db {
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

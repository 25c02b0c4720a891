import Database from "better-sqlite3";
import { join } from "node:path";
import { MIGRATIONS_ROOT } from "../migration-files.js";
import { createPrivateFile, makePrivateFolder, restrictFiles } from "../private-files.js";
import { applyMigrations } from "./migrate.js";

export type Db = Database.Database;

export const SQLITE_MIGRATIONS = join(MIGRATIONS_ROOT, "sqlite");
/** How long a statement waits for another connection's lock (another process, the checkpoint thread) before it fails. */
const BUSY_TIMEOUT_MS = 5_000;

/**
 * Opens (creating if needed) the SQLite file, sets the pragmas every connection needs and brings
 * the schema up to date, then keeps temporary storage in memory. A new folder is created 0700, the
 * files 0600. `cacheMb` sets the page cache (DATABASE_CACHE_MB); unset, better-sqlite3's build
 * default of 16 MB.
 */
export function openDatabase(path: string, migrationsDir = SQLITE_MIGRATIONS, cacheMb?: number): Db {
  const onDisk = path !== ":memory:" && path !== "";
  if (onDisk) {
    makePrivateFolder(path);
    createPrivateFile(path);
  }
  const db = new Database(path);
  // First, so that every later statement waits for another process's lock instead of failing.
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  useWriteAheadLog(db);
  db.pragma("synchronous = NORMAL");
  db.pragma("foreign_keys = ON");
  // A negative cache_size is in KiB.
  if (cacheMb !== undefined) db.pragma(`cache_size = -${Math.round(cacheMb * 1024)}`);
  immediateByDefault(db);
  if (onDisk) restrictFiles([path, `${path}-wal`, `${path}-shm`]);
  applyMigrations(db, migrationsDir);
  // After the migrations, whose CREATE INDEX may sort a whole table. A statement inside a larger
  // transaction keeps the original of each page it changes in a statement journal, which SQLite
  // spills to a temporary file past 64 KiB and then writes there for every later statement: the
  // history index's batch of a hundred exchanges wrote 14 to 26 pages to it per row (issue 30).
  // In memory, a statement journal holds only the pages one statement changes.
  db.pragma("temp_store = MEMORY");
  return db;
}

/**
 * Switches the file to its write-ahead log (a no-op once it is in one). The switch is a write, and
 * SQLite answers a connection that holds a read lock and finds another's write lock in the way
 * SQLITE_BUSY at once, without the busy wait (waiting there could deadlock): two processes
 * opening a new file together, or one opening it while another migrates it still in rollback mode,
 * met that and one of them failed to start ("database is locked"). So a busy answer is asked again,
 * after a short pause, for as long as the busy timeout. The pause blocks the thread: this runs once,
 * at start-up, before anything else is served.
 */
function useWriteAheadLog(db: Db): void {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (let attempt = 1; ; attempt++) {
    try {
      db.pragma("journal_mode = WAL");
      return;
    } catch (error) {
      if (!(error instanceof Database.SqliteError && error.code.startsWith("SQLITE_BUSY")) || Date.now() >= deadline) throw error;
      // 5 to 50 ms, a little random so that two processes do not keep meeting
      Atomics.wait(PAUSE, 0, 0, Math.min(50, 5 * attempt) * (0.5 + Math.random() / 2));
    }
  }
}

const PAUSE = new Int32Array(new SharedArrayBuffer(4));

/**
 * Makes a plain call of every transaction this connection builds BEGIN IMMEDIATE instead of
 * better-sqlite3's BEGIN (deferred). A deferred transaction takes the write lock only at its first
 * write; if it read before that and another connection (the checkpoint thread, another process)
 * holds the write lock or has committed since that read, SQLite answers SQLITE_BUSY at once,
 * without the busy wait, and the turn fails with "database is locked". An IMMEDIATE one asks for
 * the write lock at BEGIN, where the busy timeout applies. `.deferred` stays for a transaction that
 * only reads (a consistent snapshot); `.immediate` and `.exclusive` are unchanged, and a
 * transaction called inside another is still a savepoint of it.
 */
function immediateByDefault(db: Db): void {
  const deferredByDefault = db.transaction.bind(db);
  // At run time each of the four calls carries the others as properties; the types know only the plain one.
  db.transaction = ((fn) => deferredByDefault(fn).immediate) as Db["transaction"];
}

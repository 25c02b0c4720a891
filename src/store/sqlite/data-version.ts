import type { Db } from "./database.js";

/**
 * SQLite's `PRAGMA data_version`: a number that moves when another connection (another process
 * sharing the file, or the checkpoint thread's, which never writes rows) commits, and never for
 * this connection's own commits. A cache that saw the same number may trust what it holds.
 */
export class DataVersion {
  private readonly select;

  constructor(db: Db) {
    this.select = db.prepare<[], number>("PRAGMA data_version").pluck();
  }

  current(): number {
    return this.select.get()!;
  }
}

import type { Db } from "./database.js";

const perConnection = new WeakMap<Db, DataVersion>();

/**
 * SQLite's `PRAGMA data_version`: a number that moves when another connection (another process
 * sharing the file, or the checkpoint thread's, which never writes rows) commits, and never for
 * this connection's own commits. A cache that saw the same number may trust what it holds. One
 * per connection, shared by its caches (the memory windows, the settings).
 */
export class DataVersion {
  private readonly select;

  private constructor(db: Db) {
    this.select = db.prepare<[], number>("PRAGMA data_version").pluck();
  }

  static of(db: Db): DataVersion {
    let version = perConnection.get(db);
    if (!version) {
      version = new DataVersion(db);
      perConnection.set(db, version);
    }
    return version;
  }

  current(): number {
    return this.select.get()!;
  }
}

import { EXPIRED_DELETED_PER_SIGN_IN, type ConsoleSessionStore, type StoredSession } from "../console-session-store.js";
import type { Db } from "./database.js";

/** The console's sessions in the SQLite file, shared by the processes that open it. */
export class SqliteConsoleSessions implements ConsoleSessionStore {
  private readonly select;
  private readonly remove;
  private readonly insert: (idHash: string, viewerJson: string, now: number, expiresAt: number) => void;

  constructor(db: Db) {
    this.select = db.prepare<[string, number], StoredSession>(
      `SELECT viewer AS viewerJson, expires_at AS expiresAt FROM console_sessions WHERE id_hash = ? AND expires_at > ?`,
    );
    this.remove = db.prepare<[string]>(`DELETE FROM console_sessions WHERE id_hash = ?`);
    const expire = db.prepare<[number, number]>(
      `DELETE FROM console_sessions WHERE id_hash IN (SELECT id_hash FROM console_sessions WHERE expires_at <= ? ORDER BY expires_at LIMIT ?)`,
    );
    const add = db.prepare<[string, string, number, number]>(`INSERT INTO console_sessions (id_hash, viewer, created_at, expires_at) VALUES (?, ?, ?, ?)`);
    this.insert = db.transaction((idHash: string, viewerJson: string, now: number, expiresAt: number) => {
      expire.run(now, EXPIRED_DELETED_PER_SIGN_IN);
      add.run(idHash, viewerJson, now, expiresAt);
    });
  }

  async create(idHash: string, viewerJson: string, now: number, expiresAt: number): Promise<void> {
    this.insert(idHash, viewerJson, now, expiresAt);
  }

  async get(idHash: string, now: number): Promise<StoredSession | undefined> {
    return this.select.get(idHash, now);
  }

  async end(idHash: string): Promise<void> {
    this.remove.run(idHash);
  }
}

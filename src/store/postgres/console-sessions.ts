import type pg from "pg";
import { EXPIRED_DELETED_PER_SIGN_IN, type ConsoleSessionStore, type StoredSession } from "../console-session-store.js";

/** The console's sessions in PostgreSQL, shared by every process on the database. */
export class PostgresConsoleSessions implements ConsoleSessionStore {
  constructor(private readonly pool: pg.Pool) {}

  async create(idHash: string, viewerJson: string, now: number, expiresAt: number): Promise<void> {
    // One statement: the expired ones go with the new one's insert.
    await this.pool.query(
      `WITH expired AS (
         DELETE FROM console_sessions WHERE id_hash IN (SELECT id_hash FROM console_sessions WHERE expires_at <= $3 ORDER BY expires_at LIMIT $5)
       )
       INSERT INTO console_sessions (id_hash, viewer, created_at, expires_at) VALUES ($1, $2, $3, $4)`,
      [idHash, viewerJson, now, expiresAt, EXPIRED_DELETED_PER_SIGN_IN],
    );
  }

  async get(idHash: string, now: number): Promise<StoredSession | undefined> {
    const { rows } = await this.pool.query<StoredSession>(
      `SELECT viewer AS "viewerJson", expires_at AS "expiresAt" FROM console_sessions WHERE id_hash = $1 AND expires_at > $2`,
      [idHash, now],
    );
    return rows[0];
  }

  async end(idHash: string): Promise<void> {
    await this.pool.query(`DELETE FROM console_sessions WHERE id_hash = $1`, [idHash]);
  }
}

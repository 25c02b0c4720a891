import type pg from "pg";
import { readMigrations } from "../migration-files.js";
import { inTransaction } from "./connection.js";

/** One key for every bot process: migrations are applied by one process at a time. */
const MIGRATION_LOCK = "agent-bot:migrations";
/** A migration may take longer than a turn's statements; waiting for another process's migration too. */
const MIGRATION_TIMEOUT_MS = 300_000;

/**
 * Applies every migration newer than the recorded version, each in its own transaction together
 * with its record, under a transaction-scoped advisory lock: processes starting together apply
 * each migration exactly once (the others wait, then find it recorded), and a failed migration
 * leaves the previous version intact. Works through a transaction-mode pooler too.
 * Returns the names applied.
 */
export async function applyPostgresMigrations(pool: pg.Pool, dir: string): Promise<string[]> {
  const applied: string[] = [];
  for (const migration of readMigrations(dir)) {
    const ran = await inTransaction(pool, async (client) => {
      await client.query(`SET LOCAL lock_timeout = ${MIGRATION_TIMEOUT_MS}`);
      await client.query(`SET LOCAL statement_timeout = ${MIGRATION_TIMEOUT_MS}`);
      await client.query(slow("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [MIGRATION_LOCK]));
      await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
        version    INTEGER PRIMARY KEY,
        name       TEXT    NOT NULL,
        applied_at BIGINT  NOT NULL
      )`);
      const found = await client.query("SELECT 1 FROM schema_migrations WHERE version = $1", [migration.version]);
      if (found.rowCount) return false;
      await client.query(slow(migration.sql));
      await client.query("INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)", [migration.version, migration.name, Date.now()]);
      return true;
    });
    if (ran) applied.push(migration.name);
  }
  return applied;
}

/** A statement allowed the migration's time on the client's side too (pg reads `query_timeout` per query; its types omit it). */
const slow = (text: string, values?: unknown[]): pg.QueryConfig => ({ text, values, query_timeout: MIGRATION_TIMEOUT_MS + 1_000 }) as pg.QueryConfig;

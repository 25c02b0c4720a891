import type { Logger } from "../log.js";
import { SqliteStore } from "./sqlite/sqlite-store.js";
import type { Store } from "./store.js";

export interface StoreSettings {
  /** The SQLite file (DATABASE_PATH), used when no `url` is given. */
  path: string;
  /** SQLite's page cache per connection, in MB (DATABASE_CACHE_MB); unset, the library's own. */
  cacheMb?: number;
  /** PostgreSQL (DATABASE_URL). */
  url?: string;
  /** A direct connection for LISTEN (DATABASE_LISTEN_URL); default `url`. */
  listenUrl?: string;
  poolSize: number;
  timeoutMs: number;
  logger: Logger;
}

/**
 * Opens the configured store and brings its schema up to date: PostgreSQL when DATABASE_URL is
 * set (its client is imported only then), else the SQLite file.
 */
export async function openStore(settings: StoreSettings): Promise<Store> {
  if (settings.url === undefined) return SqliteStore.open(settings.path, { logger: settings.logger, cacheMb: settings.cacheMb });
  const { PostgresStore } = await import("./postgres/postgres-store.js");
  return PostgresStore.open({
    url: settings.url,
    listenUrl: settings.listenUrl,
    poolSize: settings.poolSize,
    timeoutMs: settings.timeoutMs,
    logger: settings.logger,
  });
}

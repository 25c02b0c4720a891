import type { Logger } from "../log.js";
import type { StoreSettings } from "../store/open-store.js";
import type { Config } from "./env.js";

/** How to open the configured store (SQLite at DATABASE_PATH, or PostgreSQL at DATABASE_URL). */
export function storeSettingsOf(config: Config, logger: Logger, overrides: Partial<StoreSettings> = {}): StoreSettings {
  return {
    path: config.DATABASE_PATH,
    cacheMb: config.DATABASE_CACHE_MB,
    url: config.DATABASE_URL,
    listenUrl: config.DATABASE_LISTEN_URL,
    poolSize: config.DATABASE_POOL_SIZE,
    timeoutMs: config.DATABASE_TIMEOUT_MS,
    logger,
    ...overrides,
  };
}

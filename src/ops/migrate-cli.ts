import { existsSync } from "node:fs";
import { ConfigError, loadConfig, loadDotEnv } from "../config/env.js";
import { storeSettingsOf } from "../config/store-settings.js";
import { silentLogger } from "../log.js";
import { openStore } from "../store/open-store.js";
import { redactUrl } from "../store/redact-url.js";
import { parseCommandLine } from "./command-line.js";
import { hasCode } from "../errors.js";

const { values } = parseCommandLine({
  command: "npm run migrate",
  summary:
    "Brings the configured database's schema up to date, as start-up does, and prints its version. With --to-postgres, copies the SQLite file at DATABASE_PATH into the empty PostgreSQL database at DATABASE_URL, in one transaction; stop the bot first.",
  options: { "to-postgres": { type: "boolean", description: "copy the SQLite database (DATABASE_PATH) into PostgreSQL (DATABASE_URL)" } },
  examples: ["npm run migrate", "DATABASE_URL=postgres://bot:secret@127.0.0.1:5432/bot npm run migrate -- --to-postgres"],
});

loadDotEnv();
try {
  const config = loadConfig();
  if (values["to-postgres"]) {
    if (!config.DATABASE_URL) throw new ConfigError("Set DATABASE_URL to the PostgreSQL database to copy into (postgres://user:password@host:5432/db).");
    if (!existsSync(config.DATABASE_PATH)) throw new ConfigError(`There is no SQLite database at ${config.DATABASE_PATH} (DATABASE_PATH) to copy.`);
    const { copySqliteFileToPostgres } = await import("../store/postgres/copy-from-sqlite.js");
    const copied = await copySqliteFileToPostgres(config.DATABASE_PATH, { url: config.DATABASE_URL, poolSize: 2, timeoutMs: config.DATABASE_TIMEOUT_MS });
    const counts = Object.entries(copied)
      .map(([table, rows]) => `${table} ${rows}`)
      .join(", ");
    process.stdout.write(`Copied ${config.DATABASE_PATH} into ${redactUrl(config.DATABASE_URL)}: ${counts}.\n`);
  } else {
    const store = await openStore(storeSettingsOf(config, silentLogger(), { poolSize: 1 }));
    try {
      const report = await store.inspect();
      process.stdout.write(`${report.location} is at schema version ${report.schemaVersion}.\n`);
    } finally {
      await store.close();
    }
  }
} catch (error) {
  const message = hasCode(error, "config_invalid") ? error.message : `Migration failed: ${(error as Error).message}`;
  process.stderr.write(`${message}\n`);
  process.exitCode = 1;
}

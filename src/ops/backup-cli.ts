import { ConfigError, loadConfig, loadDotEnv } from "../config/env.js";
import { backupDatabase, defaultBackupPath } from "./backup.js";

/** `npm run backup [-- TARGET]`: an online copy of DATABASE_PATH. */
loadDotEnv();
try {
  const config = loadConfig();
  if (config.DATABASE_URL) throw new ConfigError('The bot keeps its data in PostgreSQL (DATABASE_URL): back it up with pg_dump (see README, "Backups").');
  const target = process.argv[2] ?? defaultBackupPath();
  const { pages } = await backupDatabase(config.DATABASE_PATH, target);
  process.stdout.write(`Backed up ${config.DATABASE_PATH} to ${target} (${pages} pages).\n`);
} catch (error) {
  process.stderr.write(`${error instanceof ConfigError ? error.message : `Backup failed: ${(error as Error).message}`}\n`);
  process.exitCode = 1;
}

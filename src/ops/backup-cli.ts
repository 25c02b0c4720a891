import { ConfigError, loadConfig, loadDotEnv } from "../config/env.js";
import { backupDatabase, defaultBackupPath } from "./backup.js";
import { parseCommandLine } from "./command-line.js";
import { hasCode } from "../errors.js";

const { positional: target } = parseCommandLine({
  command: "npm run backup",
  summary:
    "Copies the SQLite database (DATABASE_PATH) with SQLite's online backup: safe while the bot runs. The copy is private (0600) and never overwrites a file. For PostgreSQL (DATABASE_URL) use pg_dump.",
  options: {},
  positional: { name: "TARGET", description: "the file to write (default ./backups/bot-YYYYMMDD-HHMMSS.sqlite)" },
  examples: ["npm run backup", "npm run backup -- ./backups/before-upgrade.sqlite"],
});

loadDotEnv();
try {
  const config = loadConfig();
  if (config.DATABASE_URL)
    throw new ConfigError('The bot keeps its data in PostgreSQL (DATABASE_URL): back it up with pg_dump (see docs/production.md, "Backups").');
  const path = target ?? defaultBackupPath();
  const { pages } = await backupDatabase(config.DATABASE_PATH, path);
  process.stdout.write(`Backed up ${config.DATABASE_PATH} to ${path} (${pages} pages).\n`);
} catch (error) {
  process.stderr.write(`${hasCode(error, "config_invalid") ? error.message : `Backup failed: ${(error as Error).message}`}\n`);
  process.exitCode = 1;
}

import Database from "better-sqlite3";
import { existsSync, mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";

/**
 * Copies the database with SQLite's online backup API: safe while the bot is running and
 * writing (WAL), unlike copying the file. Refuses to overwrite an existing file.
 */
export async function backupDatabase(sourcePath: string, targetPath: string): Promise<{ pages: number }> {
  if (!existsSync(sourcePath)) throw new Error(`there is no database at ${sourcePath}`);
  if (existsSync(targetPath)) throw new Error(`${targetPath} already exists; choose another name`);
  mkdirSync(dirname(resolve(targetPath)), { recursive: true });
  const source = new Database(sourcePath, { readonly: true, fileMustExist: true });
  try {
    source.pragma("busy_timeout = 5000");
    const result = await source.backup(targetPath);
    return { pages: result.totalPages };
  } finally {
    source.close();
  }
}

export function defaultBackupPath(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  return `./backups/bot-${stamp}.sqlite`;
}

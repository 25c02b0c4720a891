import Database from "better-sqlite3";
import { existsSync, rmSync } from "node:fs";
import { createPrivateFile, makePrivateFolder, restrictFiles } from "../store/private-files.js";

/**
 * Copies the database with SQLite's online backup API: safe while the bot is running and
 * writing (WAL), unlike copying the file. Refuses to overwrite an existing file. The copy holds
 * what the database holds, so it is created 0600 (in a new folder 0700), like the database.
 */
export async function backupDatabase(sourcePath: string, targetPath: string): Promise<{ pages: number }> {
  if (!existsSync(sourcePath)) throw new Error(`there is no database at ${sourcePath}`);
  if (existsSync(targetPath)) throw new Error(`${targetPath} already exists; choose another name`);
  makePrivateFolder(targetPath);
  createPrivateFile(targetPath, true);
  let source: Database.Database | undefined;
  try {
    source = new Database(sourcePath, { readonly: true, fileMustExist: true });
    source.pragma("busy_timeout = 5000");
    const result = await source.backup(targetPath);
    restrictFiles([targetPath]);
    return { pages: result.totalPages };
  } catch (error) {
    // The empty file created above would make the next attempt refuse to run.
    rmSync(targetPath, { force: true });
    throw error;
  } finally {
    source?.close();
  }
}

export function defaultBackupPath(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  return `./backups/bot-${stamp}.sqlite`;
}

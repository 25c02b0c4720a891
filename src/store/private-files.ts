import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from "node:fs";
import { dirname, resolve } from "node:path";

/** The database holds conversations and the audit: only the bot's own user may read it. */
const PRIVATE_FOLDER_MODE = 0o700;
const PRIVATE_FILE_MODE = 0o600;

/** Creates the folder of `path` (and its parents) readable by the owner only; an existing folder is left as it is. */
export function makePrivateFolder(path: string): void {
  mkdirSync(dirname(resolve(path)), { recursive: true, mode: PRIVATE_FOLDER_MODE });
}

/**
 * Creates `path` empty with mode 0600 if it does not exist: SQLite gives the -wal and -shm files
 * it creates later the mode of the database file. `exclusive` refuses an existing file.
 */
export function createPrivateFile(path: string, exclusive = false): void {
  if (!exclusive && existsSync(path)) return;
  closeSync(openSync(path, exclusive ? "wx" : "a", PRIVATE_FILE_MODE));
}

/** Tightens files an older version created world-readable. A file we may not change (another owner) is left alone. */
export function restrictFiles(paths: string[]): void {
  for (const path of paths) {
    try {
      chmodSync(path, PRIVATE_FILE_MODE);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "EPERM") throw error;
    }
  }
}

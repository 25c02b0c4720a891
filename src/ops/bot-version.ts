import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { packageRoot } from "../store/migration-files.js";

/** The bot's version as package.json gives it (read once, at start); "unknown" if it cannot be read. */
export function botVersion(): string {
  try {
    const file = join(packageRoot(dirname(fileURLToPath(import.meta.url))), "package.json");
    const { version } = JSON.parse(readFileSync(file, "utf8")) as { version?: unknown };
    return typeof version === "string" ? version : "unknown";
  } catch {
    return "unknown";
  }
}

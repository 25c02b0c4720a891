import { execFileSync } from "node:child_process";
import { resolve } from "node:path";
import { PROJECT_ROOT } from "./child-bot.js";

/**
 * vitest's globalSetup: builds dist/ once per test run with the project's own build
 * (`npm run build`), so the tests that start the bot as a process run the same JavaScript
 * `npm start` runs in production, built from the source under test.
 */
export default function setup(): void {
  execFileSync(process.execPath, [resolve(PROJECT_ROOT, "src/ops/build.mjs")], { stdio: "inherit" });
}

import { ConfigError, loadConfig, loadDotEnv } from "../config/env.js";
import { Store } from "../store/store.js";
import { UsageExport } from "./usage-export.js";

/** `npm run usage [-- --csv]`: turns, tokens and estimated cost per workspace, the last day and 30 days. */
loadDotEnv();
try {
  const config = loadConfig();
  const store = Store.open(config.DATABASE_PATH);
  try {
    const usage = new UsageExport(store, config.MODEL_PRICES);
    process.stdout.write(`${process.argv.includes("--csv") ? await usage.csv() : await usage.text()}\n`);
  } finally {
    store.close();
  }
} catch (error) {
  process.stderr.write(`${error instanceof ConfigError ? error.message : `Usage report failed: ${(error as Error).message}`}\n`);
  process.exitCode = 1;
}

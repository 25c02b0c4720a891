import { ConfigError, loadConfig, loadDotEnv } from "../config/env.js";
import { storeSettingsOf } from "../config/store-settings.js";
import { silentLogger } from "../log.js";
import { openStore } from "../store/open-store.js";
import { UsageExport } from "./usage-export.js";

/** `npm run usage [-- --csv]`: turns, tokens and estimated cost per workspace, the last day and 30 days. */
loadDotEnv();
try {
  const config = loadConfig();
  const store = await openStore(storeSettingsOf(config, silentLogger(), { poolSize: 2 }));
  try {
    const usage = new UsageExport(store, config.MODEL_PRICES);
    process.stdout.write(`${process.argv.includes("--csv") ? await usage.csv() : await usage.text()}\n`);
  } finally {
    await store.close();
  }
} catch (error) {
  process.stderr.write(`${error instanceof ConfigError ? error.message : `Usage report failed: ${(error as Error).message}`}\n`);
  process.exitCode = 1;
}

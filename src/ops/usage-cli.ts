import { loadConfig, loadDotEnv } from "../config/env.js";
import { storeSettingsOf } from "../config/store-settings.js";
import { silentLogger } from "../log.js";
import { budgetDefaults } from "../runner/budgets/budget-defaults.js";
import { Budgets } from "../runner/budgets/budgets.js";
import { openStore } from "../store/open-store.js";
import { parseCommandLine } from "./command-line.js";
import { UsageExport } from "./usage-export.js";
import { hasCode } from "../errors.js";

const { values } = parseCommandLine({
  command: "npm run usage",
  summary:
    "Prints the turns, tokens and estimated cost (MODEL_PRICES) of every workspace with turns in the last 30 days: the last day and 30 days, in all and by user, channel and model, with the 👍/👎 on the answers by model and channel.",
  options: {
    csv: { type: "boolean", description: "the same figures as CSV, one line per period and group" },
    budgets: { type: "boolean", description: "each budget's use in its current day or month instead, with its limit and source" },
  },
  examples: ["npm run usage", "npm run -s usage -- --csv > usage.csv", "npm run usage -- --budgets"],
});

loadDotEnv();
try {
  const config = loadConfig();
  const store = await openStore(storeSettingsOf(config, silentLogger(), { poolSize: 2 }));
  try {
    if (values.budgets) {
      const budgets = new Budgets({ repository: store.budgets, defaults: budgetDefaults(config), prices: config.MODEL_PRICES, logger: silentLogger() });
      process.stdout.write(`${(await budgets.report()).join("\n")}\n`);
    } else {
      const usage = new UsageExport(store, config.MODEL_PRICES);
      process.stdout.write(`${values.csv ? await usage.csv() : await usage.text()}\n`);
    }
  } finally {
    await store.close();
  }
} catch (error) {
  process.stderr.write(`${hasCode(error, "config_invalid") ? error.message : `Usage report failed: ${(error as Error).message}`}\n`);
  process.exitCode = 1;
}

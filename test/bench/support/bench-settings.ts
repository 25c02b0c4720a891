import { join } from "node:path";

/** The settings of every bot the benchmark runs, in this process or started as production starts it; its files go in `dir`. */
export function benchBotSettings(modelUrl: string, dir: string): Record<string, string> {
  return {
    OPENAI_BASE_URL: modelUrl,
    DATABASE_PATH: join(dir, "bot.sqlite"),
    CURRENCY_RATES_URL: "http://127.0.0.1:9/unreachable",
    // Limits are policy, not cost: the checks still run on every turn, but never refuse one here.
    RATE_LIMIT_PER_USER: "1000000000",
    MAX_QUEUED_TURNS: "1000000000",
    // Whole answers, so a turn compares with the floor's whole (unstreamed) responses.
    STREAM_ANSWERS: "false",
  };
}

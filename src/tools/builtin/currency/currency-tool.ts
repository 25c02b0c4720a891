import { z } from "zod";
import type { RateTable } from "../../../store/currency-rates.js";
import type { CurrencyRateStore } from "../../../store/store.js";
import { defineTool, type ToolContext } from "../../define-tool.js";
import { deadline } from "../../../signals.js";
import { formatNumber } from "../format-number.js";
import snapshot from "./ecb-snapshot.json" with { type: "json" };

/** The ECB publishes once per working day; a cached table younger than this is used as is. */
const REFRESH_AFTER_MS = 6 * 60 * 60 * 1000;
const FETCH_TIMEOUT_MS = 5_000;
const CACHE_KEY = "ecb";

export interface CurrencyToolOptions {
  store: CurrencyRateStore;
  ratesUrl: string;
}

/** EUR-based reference rates: cached in the database, refreshed from the feed, the bundled snapshot when offline. */
class EcbRateSource {
  constructor(private readonly options: CurrencyToolOptions) {}

  async current(ctx: Pick<ToolContext, "signal" | "logger">): Promise<RateTable & { note?: string }> {
    const cached = await this.options.store.get(CACHE_KEY).catch((error: unknown) => {
      ctx.logger.warn({ err: error }, "could not read the cached currency rates");
      return undefined;
    });
    if (cached && Date.now() - cached.fetchedAt < REFRESH_AFTER_MS) return cached;
    try {
      const feed = deadline(ctx.signal, FETCH_TIMEOUT_MS);
      // The feed's module brings an XML parser: loaded when rates are first fetched, not with the bot.
      const { fetchEcbRates } = await import("./ecb-rates.js");
      const fresh = await fetchEcbRates(this.options.ratesUrl, feed.signal).finally(() => feed.release());
      await this.options.store.put(CACHE_KEY, fresh).catch((error: unknown) => ctx.logger.warn({ err: error }, "could not cache the currency rates"));
      return fresh;
    } catch (error) {
      ctx.logger.warn({ err: error }, "currency rates could not be refreshed; using the last known rates");
      if (cached) return { ...cached, note: "the rate feed could not be reached, so these are the last fetched rates" };
      return { date: snapshot.date, rates: snapshot.rates, note: "offline: bundled ECB snapshot" };
    }
  }
}

function convert(amount: number, from: string, to: string, table: RateTable): number {
  const perEur = (code: string) => (code === "EUR" ? 1 : table.rates[code]);
  const known = ["EUR", ...Object.keys(table.rates)].sort();
  for (const code of [from, to]) {
    if (perEur(code) === undefined) {
      throw new Error(`unknown currency code "${code}". Valid codes: ${known.join(", ")}`);
    }
  }
  return (amount / perEur(from)!) * perEur(to)!;
}

const currencyCode = z
  .string()
  .trim()
  .transform((code) => code.toUpperCase())
  .pipe(z.string().regex(/^[A-Z]{3}$/, "a three-letter ISO currency code such as EUR or USD"));

export function createCurrencyTool(options: CurrencyToolOptions) {
  const source = new EcbRateSource(options);
  return defineTool({
    name: "convert_currency",
    example: "How much is 250 USD in euros?",
    description:
      "Converts an amount between currencies using the European Central Bank's daily reference rates. " +
      "Currencies are three-letter ISO codes (EUR, USD, GBP, JPY, ...).",
    parameters: z.object({
      amount: z.number().describe("The amount to convert"),
      from: currencyCode.describe("Currency code to convert from, e.g. EUR"),
      to: currencyCode.describe("Currency code to convert to, e.g. USD"),
    }),
    async run({ amount, from, to }, ctx) {
      const table = await source.current(ctx);
      const result = convert(amount, from, to, table);
      const note = table.note ? `; ${table.note}` : "";
      return `${formatNumber(amount)} ${from} = ${result.toFixed(2)} ${to} (ECB reference rate of ${table.date}${note})`;
    },
  });
}

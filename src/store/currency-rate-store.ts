import type { Db } from "./database.js";

export interface RateTable {
  /** The day the rates are published for (YYYY-MM-DD). */
  date: string;
  /** Units of each currency for one unit of the base currency. */
  rates: Record<string, number>;
}

export interface CachedRates extends RateTable {
  fetchedAt: number;
}

export class CurrencyRateStore {
  private readonly select;
  private readonly upsert;

  constructor(db: Db) {
    this.select = db.prepare<[string], { date: string; ratesJson: string; fetchedAt: number }>(
      `SELECT rate_date AS date, rates_json AS ratesJson, fetched_at AS fetchedAt FROM currency_rates WHERE source = ?`,
    );
    this.upsert = db.prepare<[string, string, string, number]>(
      `INSERT INTO currency_rates (source, rate_date, rates_json, fetched_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (source) DO UPDATE SET rate_date = excluded.rate_date, rates_json = excluded.rates_json,
         fetched_at = excluded.fetched_at`,
    );
  }

  get(source: string): CachedRates | undefined {
    const row = this.select.get(source);
    return row && { date: row.date, rates: JSON.parse(row.ratesJson) as Record<string, number>, fetchedAt: row.fetchedAt };
  }

  put(source: string, table: RateTable): void {
    this.upsert.run(source, table.date, JSON.stringify(table.rates), Date.now());
  }
}

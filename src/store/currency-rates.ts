export interface RateTable {
  /** The day the rates are published for (YYYY-MM-DD). */
  date: string;
  /** Units of each currency for one unit of the base currency. */
  rates: Record<string, number>;
}

export interface CachedRates extends RateTable {
  fetchedAt: number;
}

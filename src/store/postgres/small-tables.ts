import type pg from "pg";
import type { CachedRates, RateTable } from "../currency-rates.js";
import type { BotThread, BotThreadStore, CurrencyRateStore, EventClaimStore, ThreadScope } from "../store.js";

/**
 * Claimed event ids: the primary key makes the insert the claim, so of several processes one wins.
 * Old claims are pruned in the background (see RetentionStore), never by a claim.
 */
export class PostgresEventClaims implements EventClaimStore {
  constructor(private readonly pool: pg.Pool) {}

  async claim(platform: string, eventId: string): Promise<boolean> {
    const { rowCount } = await this.pool.query(`INSERT INTO processed_events (platform, event_id, received_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [
      platform,
      eventId,
      Date.now(),
    ]);
    return rowCount === 1;
  }
}

export class PostgresBotThreads implements BotThreadStore {
  constructor(private readonly pool: pg.Pool) {}

  async remember(thread: BotThread, scope: ThreadScope = "thread"): Promise<void> {
    await this.pool.query(
      `INSERT INTO bot_threads (platform, workspace_id, channel_id, thread_id, scope, created_at) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
      [thread.platform, thread.workspaceId, thread.channelId, thread.threadId, scope, Date.now()],
    );
  }

  async scopeOf(platform: string, channelId: string, threadId: string): Promise<ThreadScope | undefined> {
    const { rows } = await this.pool.query<{ scope: ThreadScope }>(`SELECT scope FROM bot_threads WHERE platform = $1 AND channel_id = $2 AND thread_id = $3`, [
      platform,
      channelId,
      threadId,
    ]);
    return rows[0]?.scope;
  }
}

export class PostgresCurrencyRates implements CurrencyRateStore {
  constructor(private readonly pool: pg.Pool) {}

  async get(source: string): Promise<CachedRates | undefined> {
    const { rows } = await this.pool.query<{ date: string; ratesJson: string; fetchedAt: number }>(
      `SELECT rate_date AS date, rates_json AS "ratesJson", fetched_at AS "fetchedAt" FROM currency_rates WHERE source = $1`,
      [source],
    );
    const row = rows[0];
    return row && { date: row.date, rates: JSON.parse(row.ratesJson) as Record<string, number>, fetchedAt: row.fetchedAt };
  }

  async put(source: string, table: RateTable): Promise<void> {
    await this.pool.query(
      `INSERT INTO currency_rates (source, rate_date, rates_json, fetched_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (source) DO UPDATE SET rate_date = EXCLUDED.rate_date, rates_json = EXCLUDED.rates_json, fetched_at = EXCLUDED.fetched_at`,
      [source, table.date, JSON.stringify(table.rates), Date.now()],
    );
  }
}

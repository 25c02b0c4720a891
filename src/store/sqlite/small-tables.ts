import type { CachedRates, RateTable } from "../currency-rates.js";
import type { BotThread, BotThreadStore, CurrencyRateStore, EventClaimStore, ThreadScope } from "../store.js";
import type { Db } from "./database.js";

/**
 * Claimed event ids; INSERT OR IGNORE is the unique insert, so two processes cannot both claim one.
 * Old claims are pruned in the background (see RetentionStore), never by a claim.
 */
export class SqliteEventClaims implements EventClaimStore {
  private readonly insert;

  constructor(db: Db) {
    this.insert = db.prepare<[string, string, number]>(`INSERT OR IGNORE INTO processed_events (platform, event_id, received_at) VALUES (?, ?, ?)`);
  }

  async claim(platform: string, eventId: string): Promise<boolean> {
    return this.insert.run(platform, eventId, Date.now()).changes === 1;
  }
}

export class SqliteBotThreads implements BotThreadStore {
  private readonly insert;
  private readonly selectScope;

  constructor(db: Db) {
    this.insert = db.prepare<[string, string, string, string, string, number]>(
      `INSERT OR IGNORE INTO bot_threads (platform, workspace_id, channel_id, thread_id, scope, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
    );
    this.selectScope = db
      .prepare<[string, string, string], ThreadScope>(`SELECT scope FROM bot_threads WHERE platform = ? AND channel_id = ? AND thread_id = ?`)
      .pluck();
  }

  async remember(thread: BotThread, scope: ThreadScope = "thread"): Promise<void> {
    this.insert.run(thread.platform, thread.workspaceId, thread.channelId, thread.threadId, scope, Date.now());
  }

  async scopeOf(platform: string, channelId: string, threadId: string): Promise<ThreadScope | undefined> {
    return this.selectScope.get(platform, channelId, threadId);
  }
}

export class SqliteCurrencyRates implements CurrencyRateStore {
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

  async get(source: string): Promise<CachedRates | undefined> {
    const row = this.select.get(source);
    return row && { date: row.date, rates: JSON.parse(row.ratesJson) as Record<string, number>, fetchedAt: row.fetchedAt };
  }

  async put(source: string, table: RateTable): Promise<void> {
    this.upsert.run(source, table.date, JSON.stringify(table.rates), Date.now());
  }
}

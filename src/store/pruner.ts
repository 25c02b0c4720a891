import type { Logger } from "../log.js";
import type { HistoryStore } from "./history-store.js";
import type { PruneCounts, RetentionStore } from "./store.js";

export const DAY_MS = 24 * 60 * 60 * 1000;
/**
 * Claims are kept well past any redelivery: Slack retries an event for about an hour, Discord
 * replays missed events when a session resumes within minutes, and a restart reads them again.
 */
const CLAIM_RETENTION_MS = 7 * DAY_MS;
/** Budget windows are a day or a month: a window that started this long ago is over, the last month's included (the operators' report reads it). */
const SPEND_RETENTION_MS = 70 * DAY_MS;
/** Rows of each kind per round: each round's transactions take a few milliseconds. */
const ROUND_LIMIT = 500;
/** Rounds per sweep at most; what is left goes in the next sweep. */
const MAX_ROUNDS = 20;
/** A pause between rounds, so turns' writes go between them. */
export const BETWEEN_ROUNDS_MS = 50;
/** The first sweep a minute after start, then hourly (the departed workspaces' purge keeps the same times). */
export const FIRST_SWEEP_MS = 60_000;
export const SWEEP_EVERY_MS = 60 * 60 * 1000;

export interface PrunerOptions {
  /** BOT_THREAD_RETENTION_DAYS: bot threads without a turn for this long, and thread seeds never used, go. */
  threadRetentionDays: number;
  /** HISTORY_RETENTION_DAYS: indexed messages and stored exchanges older than this go. */
  history?: { index: HistoryStore; retentionDays: number };
  logger: Logger;
}

/**
 * Prunes what the store keeps only for a while, in the background: a minute after start, then
 * hourly, in bounded rounds with pauses between them, so no turn waits for it. A failure is logged
 * and tried again at the next sweep. Every process sweeps; the rounds' rows are then already gone.
 */
export class StorePruner {
  private timer?: NodeJS.Timeout;
  private sweeping?: Promise<void>;
  private stopped = false;

  constructor(
    private readonly retention: RetentionStore,
    private readonly options: PrunerOptions,
  ) {}

  start(): void {
    this.schedule(FIRST_SWEEP_MS);
  }

  /** Stops sweeping; resolves once a round under way has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.sweeping;
  }

  /** One sweep: rounds until nothing is left to prune or the round limit is reached. Returns what went. */
  async sweep(now = Date.now()): Promise<PruneCounts> {
    const cutoffs = { threads: now - this.options.threadRetentionDays * DAY_MS, claims: now - CLAIM_RETENTION_MS, spend: now - SPEND_RETENTION_MS };
    const total: PruneCounts = { threads: 0, seeds: 0, claims: 0, spend: 0 };
    for (let round = 0; round < MAX_ROUNDS && !this.stopped; round++) {
      const counts = await this.retention.pruneRound(cutoffs, ROUND_LIMIT);
      total.threads += counts.threads;
      total.seeds += counts.seeds;
      total.claims += counts.claims;
      total.spend += counts.spend;
      if (Math.max(counts.threads, counts.seeds, counts.claims, counts.spend) < ROUND_LIMIT) break;
      await new Promise((resolve) => setTimeout(resolve, BETWEEN_ROUNDS_MS));
    }
    if (total.threads + total.seeds + total.claims + total.spend > 0) {
      this.options.logger.info({ pruned: total }, "pruned old bot threads, thread seeds, event claims and budget windows");
    }
    await this.sweepHistory(now);
    return total;
  }

  /** Indexed messages and exchanges past HISTORY_RETENTION_DAYS, in the same bounded rounds (hourly, so never more than a day late). */
  async sweepHistory(now = Date.now()): Promise<{ indexed: number; exchanges: number }> {
    const total = { indexed: 0, exchanges: 0 };
    const history = this.options.history;
    if (!history) return total;
    const cutoff = now - history.retentionDays * DAY_MS;
    for (let round = 0; round < MAX_ROUNDS && !this.stopped; round++) {
      const counts = await history.index.prune(cutoff, ROUND_LIMIT);
      total.indexed += counts.indexed;
      total.exchanges += counts.exchanges;
      if (Math.max(counts.indexed, counts.exchanges) < ROUND_LIMIT) break;
      await new Promise((resolve) => setTimeout(resolve, BETWEEN_ROUNDS_MS));
    }
    if (total.indexed + total.exchanges > 0) this.options.logger.info({ pruned: total }, "pruned indexed messages and exchanges past HISTORY_RETENTION_DAYS");
    return total;
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.sweeping = this.sweep()
        .then(() => undefined)
        .catch((error: unknown) => this.options.logger.warn({ err: error }, "could not prune old bot threads and event claims; trying again in an hour"))
        .finally(() => {
          this.sweeping = undefined;
          this.schedule(SWEEP_EVERY_MS);
        });
    }, ms);
    this.timer.unref();
  }
}

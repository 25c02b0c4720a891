import type { Logger } from "../log.js";
import type { QueueTicket, QueueStore } from "../store/store.js";

/** The first retry of a failed release, doubling up to the longest wait between two. */
const FIRST_RETRY_MS = 200;
const MAX_RETRY_MS = 5_000;

/**
 * Gives up turns' places in line, and keeps the ones whose release failed (the database was
 * unreachable, the SQLite file busy or full) to try again, with backoff, until they go. Without it,
 * a failed release held the conversation's line for the longest a turn may take (28 minutes with
 * the defaults), since the owning process is alive and no crash detection frees its places.
 */
export class PlaceReleases {
  private readonly pending = new Map<number, QueueTicket>();
  private timer?: NodeJS.Timeout;
  private delayMs = FIRST_RETRY_MS;
  private retrying?: Promise<void>;
  private stopped = false;

  constructor(
    private readonly queue: QueueStore,
    private readonly logger: Logger,
  ) {}

  /** Gives the place up now; a failure keeps it for the retries (never rejects). */
  async release(ticket: QueueTicket): Promise<void> {
    try {
      await this.queue.leave(ticket);
    } catch (error) {
      this.logger.warn({ err: error, place: ticket.id }, "could not give up a turn's place in line; trying again until the database answers");
      this.pending.set(ticket.id, ticket);
      this.schedule();
    }
  }

  /**
   * Stops retrying (shutdown): the store's clean stop releases every place of this process anyway,
   * and a crashed one's are released by whichever process reaps it.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.retrying;
  }

  private schedule(): void {
    if (this.stopped || this.timer || this.retrying || this.pending.size === 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.retrying = this.retry().finally(() => {
        this.retrying = undefined;
        this.schedule();
      });
    }, this.delayMs);
    this.timer.unref();
  }

  private async retry(): Promise<void> {
    let failed = 0;
    for (const ticket of [...this.pending.values()]) {
      if (this.stopped) return;
      try {
        await this.queue.leave(ticket);
        this.pending.delete(ticket.id);
        this.logger.info({ place: ticket.id }, "gave up a turn's place in line after the database answered again");
      } catch (error) {
        failed++;
        if (failed === 1) this.logger.debug({ err: error, waiting: this.pending.size }, "places in line still not given up");
      }
    }
    this.delayMs = this.pending.size === 0 ? FIRST_RETRY_MS : Math.min(this.delayMs * 2, MAX_RETRY_MS);
  }
}

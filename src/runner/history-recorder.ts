import type { Logger } from "../log.js";
import type { DeletedMessages, Forgotten, HistoryEntry, HistoryStore } from "../store/history-store.js";

/** An entry to index, its link still being made (a Slack permalink needs the workspace's address, asked once). */
export type PendingEntry = Omit<HistoryEntry, "link"> & { link?: Promise<string | undefined> };

/**
 * Told after something was forgotten (a deletion on the platform, forget-me), for what keeps text
 * derived from messages elsewhere: the conversation summaries (issue 24 §1) rebuild the ones the
 * store emptied. A hook that throws is logged.
 */
export interface ForgetHook {
  forgotten(what: Forgotten): Promise<void>;
}

type Job = { add: PendingEntry } | { edit: DeletedMessages; text: string } | { forget: DeletedMessages };

/** Entries written in one transaction at most; this many waiting are written at once. */
const BATCH = 500;
/**
 * How long new entries wait to be written together (issue 30). Each commit of the index writes
 * its FTS segment and the touched pages of six b-trees: about 16 pages for one exchange, 66 for a
 * hundred. A search, an edit, a deletion or a shutdown writes what waits at once.
 */
const GATHER_MS = 1_000;
/** Entries waiting at most; past that new ones are dropped (and logged) rather than the process's memory growing. */
const MAX_PENDING = 20_000;
/** The longest a search waits for this process's queued writes (see caughtUp). */
const CAUGHT_UP_WAIT_MS = 2_000;

/**
 * Writes to the history index off every turn's path: entries, edits and deletions queue here and
 * are written in order, in batches (a turn's answer is posted before its exchange is indexed). New
 * entries gather for up to GATHER_MS so that the exchanges of many turns share one commit; an
 * edit, a deletion, a search of this process (caughtUp) or the store closing (idle) writes
 * everything queued at once. Order matters: a deletion that arrives right after its message is
 * applied after that message's indexing, so nothing deleted comes back. Another process's search
 * sees this one's newest exchanges up to GATHER_MS late.
 */
export class HistoryRecorder {
  private queue: Job[] = [];
  /** Jobs queued and jobs written (or given up) so far: what caughtUp waits for. */
  private pushed = 0;
  private done = 0;
  private readonly waiters = new Set<{ upTo: number; resolve: () => void }>();
  private draining?: Promise<void>;
  /** Set while new entries gather (GATHER_MS); cleared when a drain is scheduled. */
  private gathering?: NodeJS.Timeout;
  /** A drain was asked for while one ran: what is left when it ends is written at once. */
  private drainAgain = false;
  private droppedSince = 0;

  constructor(
    private readonly index: HistoryStore,
    private readonly logger: Logger,
    private readonly hooks: readonly ForgetHook[] = [],
  ) {}

  add(entry: PendingEntry): void {
    if (this.queue.length >= MAX_PENDING) {
      if (this.droppedSince++ === 0)
        this.logger.warn({ pending: this.queue.length }, "the history index is behind; messages are not indexed until it catches up");
      return;
    }
    this.push({ add: entry });
    if (this.queue.length >= BATCH) this.schedule();
    else this.gather();
  }

  edit(where: DeletedMessages, text: string): void {
    this.push({ edit: where, text });
    this.schedule();
  }

  forget(deleted: DeletedMessages): void {
    this.push({ forget: deleted });
    this.schedule();
  }

  /** Writes everything queued now and resolves once it is written (tests, shutdown). */
  async idle(): Promise<void> {
    if (this.queue.length > 0) this.schedule();
    while (this.draining) await this.draining;
  }

  /**
   * Resolves once what was queued before the call is written, or after `maxMs`: a search reads
   * what this process said just before (the exchange of a turn that ended in this pass of the
   * event loop is written only after it), whichever phase of the loop the turn ended in.
   */
  caughtUp(maxMs = CAUGHT_UP_WAIT_MS): Promise<void> {
    const upTo = this.pushed;
    if (this.done >= upTo) return Promise.resolve();
    if (this.queue.length > 0) this.schedule();
    return new Promise((resolve) => {
      const waiter = {
        upTo,
        resolve: () => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          resolve();
        },
      };
      const timer = setTimeout(waiter.resolve, maxMs);
      this.waiters.add(waiter);
    });
  }

  private advance(count: number): void {
    this.done += count;
    for (const waiter of [...this.waiters]) if (waiter.upTo <= this.done) waiter.resolve();
  }

  /** The hooks, after messages were forgotten (a deletion here, or forget-me). */
  async forgotten(what: Forgotten): Promise<void> {
    for (const hook of this.hooks) {
      await hook.forgotten(what).catch((error: unknown) => this.logger.warn({ err: error }, "a forget hook failed"));
    }
  }

  private push(job: Job): void {
    this.pushed++;
    this.queue.push(job);
  }

  /** New entries wait GATHER_MS for others to share their commit; a drain under way takes them. */
  private gather(): void {
    if (!this.draining) this.gathering ??= setTimeout(() => this.schedule(), GATHER_MS).unref();
  }

  /** Drains everything queued after the current event's work (asked during a drain: right after it). */
  private schedule(): void {
    clearTimeout(this.gathering);
    this.gathering = undefined;
    if (this.draining) {
      this.drainAgain = true;
      return;
    }
    this.draining = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.drain())
      .finally(() => {
        this.draining = undefined;
        const again = this.drainAgain;
        this.drainAgain = false;
        // Jobs pushed while the last round was ending: now if one asked for it, else they gather.
        if (this.queue.length === 0) return;
        if (again) this.schedule();
        else this.gather();
      });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const first = this.queue[0]!;
      if ("add" in first) {
        let count = 0;
        while (count < this.queue.length && count < BATCH && "add" in this.queue[count]!) count++;
        const batch = this.queue.splice(0, count).map((job) => (job as { add: PendingEntry }).add);
        await this.write(batch);
        this.advance(batch.length);
      } else {
        this.queue.shift();
        await this.apply(first);
        this.advance(1);
      }
    }
    if (this.droppedSince > 0) {
      this.logger.warn({ dropped: this.droppedSince }, "the history index caught up; some messages were not indexed");
      this.droppedSince = 0;
    }
  }

  private async write(batch: PendingEntry[]): Promise<void> {
    try {
      const entries = await Promise.all(
        batch.map(async ({ link, ...entry }): Promise<HistoryEntry> => ({ ...entry, link: await link?.catch(() => undefined) })),
      );
      await this.index.add(entries);
    } catch (error) {
      this.logger.warn({ err: error, messages: batch.length }, "could not index messages");
    }
  }

  private async apply(job: Exclude<Job, { add: PendingEntry }>): Promise<void> {
    try {
      if ("edit" in job) {
        await this.index.edit(job.edit, job.text);
        return;
      }
      await this.forgotten(await this.index.forgetMessages(job.forget));
    } catch (error) {
      this.logger.warn({ err: error }, "could not apply an edit or a deletion to the history index");
    }
  }
}

import type { Db } from "./database.js";

interface Leaving {
  id: number;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Places in line given up but not yet deleted. A turn's place is given up once its answer was
 * shown, and the conversation's next turn (in this process, most often at once) takes its own
 * place in a transaction of its own: the delete rides along in that transaction instead of paying
 * a commit of its own (and writing the queue's pages twice). Whatever no transaction took within
 * `waitMs` is deleted then, in one transaction: the conversation's next question most often comes
 * sooner (a piped terminal's next line, another message in a busy channel), and another process
 * waiting for the place looks again only that often or less anyway (the queue passes its first
 * poll). This process's own waiters are woken at once and delete it with their look. `leave`'s
 * promise settles once the delete committed; a failed delete rejects it, and the caller retries
 * (PlaceReleases).
 */
export class DeferredLeaves {
  private pending: Leaving[] = [];
  /** The deletes the running transaction took (deleteInside), settled once it committed. */
  private taken: Leaving[] = [];
  private scheduled = false;
  private readonly deleteTicket;
  private readonly flushAlone: () => void;

  /** `waitMs`: the longest a given-up place waits for another transaction to take its delete. */
  constructor(
    db: Db,
    private readonly waitMs: number,
  ) {
    this.deleteTicket = db.prepare<[number]>(`DELETE FROM turn_queue WHERE id = ?`);
    const flush = db.transaction(() => this.deleteInside());
    this.flushAlone = () => flush.immediate();
  }

  /** Queues the delete; resolves once it committed, with the next transaction that takes it or after `waitMs`. */
  leave(id: number): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ id, resolve, reject });
      this.schedule();
    });
  }

  /**
   * Runs `transaction`, a transaction that calls deleteInside() first, and settles the deletes it
   * took once it returned (committed). If it throws, they were rolled back with it: they wait
   * for the end of the pass again.
   */
  within<T>(transaction: () => T): T {
    try {
      const result = transaction();
      for (const leaving of this.taken) leaving.resolve();
      return result;
    } catch (error) {
      if (this.taken.length > 0) {
        this.pending = [...this.taken, ...this.pending];
        this.schedule();
      }
      throw error;
    } finally {
      this.taken = [];
    }
  }

  /** Inside a transaction run through `within`: deletes every pending place. */
  deleteInside(): void {
    if (this.pending.length === 0) return;
    this.taken = this.pending;
    this.pending = [];
    for (const { id } of this.taken) this.deleteTicket.run(id);
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setTimeout(() => {
      this.scheduled = false;
      this.flushNow();
    }, this.waitMs);
  }

  /** Deletes what is pending now, in a transaction of its own. */
  flushNow(): void {
    if (this.pending.length === 0) return;
    try {
      this.within(this.flushAlone);
    } catch (error) {
      // Not left to wait for another pass: the caller's retries (with their backoff) take it from here.
      const failed = this.pending;
      this.pending = [];
      for (const leaving of failed) leaving.reject(error);
    }
  }
}

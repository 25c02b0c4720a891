import { createHash } from "node:crypto";
import type pg from "pg";
import { HeadWatch } from "../head-watch.js";
import { ownPlaceLost, type QueueAdmission, type QueueEntry, type QueueHead, type QueueTicket, type TurnQueue, type WaitOptions } from "../store.js";
import { conversationKey } from "../types.js";
import { CHANNELS } from "./listener.js";

/** How long a waiting turn trusts notifications before it looks again anyway; shorter while they cannot arrive. */
const LOOK_AGAIN_MS = 1_000;
const LOOK_AGAIN_UNHEARD_MS = 100;

/** The payload of a queue notification: short and of fixed length, whatever the key. PostgreSQL's md5() gives the same. */
const queueSignal = (key: string) => createHash("md5").update(key, "utf8").digest("hex");

/**
 * The turn queue in PostgreSQL. A place is taken by enter_turn_queue() (see the migration): under
 * a transaction-scoped advisory lock on the conversation, with the queue-depth and rate checks.
 * No connection is held while a turn waits or runs: the waiting turn looks whether an earlier
 * place remains, and looks again when a place of its conversation is given up (NOTIFY), or after
 * a second in case a notification was missed.
 */
export class PostgresTurnQueue implements TurnQueue {
  private readonly waiters = new Map<string, Set<() => void>>();

  constructor(
    private readonly pool: pg.Pool,
    private readonly listening: () => boolean,
  ) {}

  /** A notification from any process: wakes this process's turns waiting in that conversation. */
  notified(signal: string): void {
    for (const wake of this.waiters.get(signal) ?? []) wake();
  }

  async enter(entry: QueueEntry): Promise<QueueAdmission> {
    const key = conversationKey(entry.conversation);
    const { rows } = await this.pool.query<{ place: number }>(`SELECT enter_turn_queue($1, $2, $3, $4, $5, $6) AS place`, [
      key,
      entry.instance,
      entry.maxDepth,
      entry.rate?.key ?? null,
      entry.rate?.limit ?? null,
      entry.rate?.windowMs ?? null,
    ]);
    const place = rows[0]!.place;
    if (place === -1) return { refused: "queue_full" };
    if (place === -2) return { refused: "rate_limited" };
    return { ticket: { id: place, conversationKey: key } };
  }

  async waitForTurn(ticket: QueueTicket, options: WaitOptions): Promise<void> {
    const head = new HeadWatch(options.staleAfterMs);
    const signal = queueSignal(ticket.conversationKey);
    let blocked = false;
    for (;;) {
      options.signal.throwIfAborted();
      // Listening before looking: a place given up in between still wakes this turn.
      const woken = this.nextWake(signal, options.signal);
      try {
        const { rows } = await this.pool.query<QueueHead>(`SELECT id, instance FROM turn_queue WHERE conversation_key = $1 AND id < $2 ORDER BY id LIMIT 1`, [
          ticket.conversationKey,
          ticket.id,
        ]);
        const first = rows[0];
        if (first === undefined) return;
        if (head.abandoned(first.id) || ownPlaceLost(first, options.own)) {
          await this.release(first.id, ticket.conversationKey);
          continue;
        }
        if (!blocked) options.onBlocked?.();
        blocked = true;
        await woken.wait(this.listening() ? LOOK_AGAIN_MS : LOOK_AGAIN_UNHEARD_MS);
      } finally {
        woken.cancel();
      }
    }
  }

  leave(ticket: QueueTicket): Promise<void> {
    return this.release(ticket.id, ticket.conversationKey);
  }

  private async release(id: number, key: string): Promise<void> {
    // Like taking a place, giving it up need not wait for the disk.
    await this.pool.query(
      `WITH gone AS (DELETE FROM turn_queue WHERE id = $1 RETURNING 1) SELECT set_config('synchronous_commit', 'off', true), pg_notify($2, $3) FROM gone`,
      [id, CHANNELS.queue, queueSignal(key)],
    );
  }

  /** A wake-up for this conversation's next notification, or after `ms`, or at abort (which the caller sees). */
  private nextWake(key: string, abort: AbortSignal) {
    let wake!: () => void;
    const woken = new Promise<void>((resolve) => (wake = resolve));
    const set = this.waiters.get(key) ?? new Set();
    set.add(wake);
    this.waiters.set(key, set);
    let timer: NodeJS.Timeout | undefined;
    const onAbort = () => wake();
    abort.addEventListener("abort", onAbort, { once: true });
    return {
      wait: (ms: number) => {
        timer = setTimeout(wake, ms);
        return woken;
      },
      cancel: () => {
        clearTimeout(timer);
        abort.removeEventListener("abort", onAbort);
        set.delete(wake);
        if (set.size === 0 && this.waiters.get(key) === set) this.waiters.delete(key);
      },
    };
  }
}

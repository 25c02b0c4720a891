import { createHash } from "node:crypto";
import type pg from "pg";
import { HeadWatch } from "../head-watch.js";
import {
  ownPlaceLost,
  type ClaimOutcome,
  type PlaceChecks,
  type PlaceClaim,
  type QueueAdmission,
  type QueueTicket,
  type ThreadScope,
  type QueueStore,
  type WaitOptions,
} from "../store.js";
import { conversationKey } from "../types.js";
import { CHANNELS } from "./listener.js";

/** How long a waiting turn trusts notifications before it looks again anyway; shorter while they cannot arrive. */
const LOOK_AGAIN_MS = 1_000;
const LOOK_AGAIN_UNHEARD_MS = 100;

/** The payload of a queue notification: short and of fixed length, whatever the key. PostgreSQL's md5() gives the same. */
const queueSignal = (key: string) => createHash("md5").update(key, "utf8").digest("hex");

/**
 * The turn queue in PostgreSQL (see migration 009): a place is taken with the message's claim by
 * claim_turn_place(), checked by admit_turn_place(), and its turn started by start_turn_place()
 * under a transaction-scoped advisory lock on the conversation. No connection is held while a turn
 * waits or runs: the waiting turn looks whether the way is clear, and looks again when a place of
 * its conversation is given up (NOTIFY), or after a second in case a notification was missed.
 */
export class PostgresTurnQueue implements QueueStore {
  private readonly waiters = new Map<string, Set<() => void>>();

  constructor(
    private readonly pool: pg.Pool,
    private readonly listening: () => boolean,
  ) {}

  /** A notification from any process: wakes this process's turns waiting in that conversation. */
  notified(signal: string): void {
    for (const wake of this.waiters.get(signal) ?? []) wake();
  }

  async claim(claim: PlaceClaim): Promise<ClaimOutcome> {
    const { conversation, thread } = claim;
    const key = conversationKey(conversation);
    const channelKey = thread ? conversationKey(thread.channelConversation) : key;
    const now = Date.now();
    const { rows } = await this.pool.query<{ outcome: "placed" | "duplicate" | "not_addressed"; place: string | null; scope: ThreadScope | null }>(
      `SELECT outcome, place, scope FROM claim_turn_place($1, $2, $3, $4, $5, $6, $7, $8::bigint, $9, $10)`,
      [
        claim.claim?.platform ?? conversation.platform,
        claim.claim?.eventId ?? null,
        thread?.channelId ?? null,
        thread?.threadId ?? null,
        claim.addressed,
        key,
        channelKey,
        claim.order,
        claim.instance,
        now,
      ],
    );
    const row = rows[0]!;
    if (row.outcome !== "placed") return { skipped: row.outcome };
    const ticket = { id: Number(row.place), conversationKey: row.scope === "channel" ? channelKey : key };
    return { placed: ticket, ...(row.scope ? { scope: row.scope } : {}) };
  }

  async admit(ticket: QueueTicket, checks: PlaceChecks): Promise<QueueAdmission> {
    const { rows } = await this.pool.query<{ place: string }>(`SELECT admit_turn_place($1, $2, $3, $4, $5) AS place`, [
      ticket.id,
      checks.maxDepth,
      checks.rate?.key ?? null,
      checks.rate?.limit ?? null,
      checks.rate?.windowMs ?? null,
    ]);
    const place = Number(rows[0]!.place);
    if (place === -1) return { refused: "queue_full" };
    if (place === -2) return { refused: "rate_limited" };
    return { ticket };
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
        // The place in the way and whose it is, in the same round trip (no owner when it was taken
        // after this statement's snapshot: it is not dropped then, the next look sees it).
        const { rows } = await this.pool.query<{ blocker: string | null; instance: string | null }>(
          `WITH b AS MATERIALIZED (SELECT start_turn_place($1) AS blocker) SELECT b.blocker, q.instance FROM b LEFT JOIN turn_queue q ON q.id = b.blocker`,
          [ticket.id],
        );
        const row = rows[0];
        if (row?.blocker === null || row?.blocker === undefined) return;
        const blocker = Number(row.blocker);
        if (head.abandoned(blocker) || (row.instance !== null && ownPlaceLost({ id: blocker, instance: row.instance }, options.own))) {
          await this.release(blocker, ticket.conversationKey);
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

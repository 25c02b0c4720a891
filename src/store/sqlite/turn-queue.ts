import { abortableSleep } from "../abortable-sleep.js";
import { HeadWatch } from "../head-watch.js";
import { takeTurn, type RateCounter } from "../rate-window.js";
import {
  ownPlaceLost,
  type ClaimOutcome,
  type PlaceChecks,
  type PlaceClaim,
  type QueueAdmission,
  type QueueHead,
  type QueueTicket,
  type ThreadScope,
  type QueueStore,
  type WaitOptions,
} from "../store.js";
import type { TurnStart } from "../turn-records.js";
import { conversationKey, type Conversation } from "../types.js";
import type { Db } from "./database.js";
import { DeferredLeaves } from "./deferred-leaves.js";

/**
 * How often a turn behind another process's turn looks again: quick at first, then at most this
 * often. A place this process gave up waits no longer than the first poll for its delete (DeferredLeaves).
 */
const FIRST_POLL_MS = 5;
const MAX_POLL_MS = 100;

/**
 * The turn queue in the file. Claims, places and starts are IMMEDIATE transactions (the write lock
 * orders them); places run in message order (the platform's), ties in id order. A turn behind
 * another one polls until the way is clear, and is woken at once when a place of this process is
 * given up.
 */
export class SqliteTurnQueue implements QueueStore {
  private readonly claimInTransaction: (claim: PlaceClaim, now: number) => ClaimOutcome;
  private readonly admitInTransaction: (ticket: QueueTicket, checks: PlaceChecks, now: number) => QueueAdmission;
  private readonly startInTransaction: (ticket: QueueTicket, now: number) => QueueHead | undefined;
  private readonly deleteTicket;
  private readonly leaves: DeferredLeaves;
  /** This process's turns waiting in a conversation, woken when one of its places is given up. */
  private readonly waiters = new Map<string, Set<() => void>>();

  /** `openTurn`: records a turn as running inside the admission's transaction (SqliteTurnLog.startInside). */
  constructor(db: Db, openTurn?: (turn: TurnStart) => Conversation) {
    const selectScope = db
      .prepare<[string, string, string], ThreadScope>(`SELECT scope FROM bot_threads WHERE platform = ? AND channel_id = ? AND thread_id = ?`)
      .pluck();
    const insertClaim = db.prepare<[string, string, number]>(`INSERT OR IGNORE INTO processed_events (platform, event_id, received_at) VALUES (?, ?, ?)`);
    const insertTicket = db.prepare<[string, string, number, bigint]>(
      `INSERT INTO turn_queue (conversation_key, instance, entered_at, message_order) VALUES (?, ?, ?, ?)`,
    );
    const selectTicket = db.prepare<[number], { order: bigint; started: number | null }>(
      `SELECT message_order AS "order", started_at AS started FROM turn_queue WHERE id = ?`,
    );
    selectTicket.safeIntegers(true);
    // Other places of the conversation in the way: running ones, and those before it in message order.
    const inTheWay = `conversation_key = ? AND id <> ? AND (started_at IS NOT NULL OR message_order < ? OR (message_order = ? AND id < ?))`;
    const depthAhead = db.prepare<[string, number, bigint, bigint, number], number>(`SELECT COUNT(*) FROM turn_queue WHERE ${inTheWay}`).pluck();
    const firstInTheWay = db.prepare<[string, number, bigint, bigint, number], QueueHead>(
      `SELECT id, instance FROM turn_queue WHERE ${inTheWay} ORDER BY started_at IS NULL, message_order, id LIMIT 1`,
    );
    const markStarted = db.prepare<[number, number]>(`UPDATE turn_queue SET started_at = ? WHERE id = ?`);
    const markStartedFor = db.prepare<[number, string, number]>(`UPDATE turn_queue SET started_at = ?, turn_id = ? WHERE id = ?`);
    const selectRate = db.prepare<[string], RateCounter>(`SELECT period, current, previous FROM rate_windows WHERE key = ?`);
    const saveRate = db.prepare<[string, number, number, number, number]>(
      `INSERT INTO rate_windows (key, period, current, previous, updated_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET period = excluded.period, current = excluded.current, previous = excluded.previous, updated_at = excluded.updated_at`,
    );
    this.deleteTicket = db.prepare<[number]>(`DELETE FROM turn_queue WHERE id = ?`);
    // Each of the queue's transactions first deletes the places given up since the last one (see DeferredLeaves).
    const leaves = (this.leaves = new DeferredLeaves(db, FIRST_POLL_MS));

    /** The admission's checks, inside a transaction; `place`: the place's row when the caller knows it (it was just taken). */
    const admitInside = (ticket: QueueTicket, checks: PlaceChecks, now: number, place = selectTicket.get(ticket.id)): QueueAdmission => {
      // Gone already (its process was taken for dead): nothing to count; the wait finds the way clear.
      if (!place) return { ticket };
      const ahead = depthAhead.get(ticket.conversationKey, ticket.id, place.order, place.order, ticket.id)!;
      if (ahead >= checks.maxDepth) {
        this.deleteTicket.run(ticket.id);
        return { refused: "queue_full" };
      }
      if (checks.rate) {
        const counted = takeTurn(selectRate.get(checks.rate.key), now, checks.rate.windowMs, checks.rate.limit);
        if (!counted) {
          this.deleteTicket.run(ticket.id);
          return { refused: "rate_limited" };
        }
        saveRate.run(checks.rate.key, counted.period, counted.current, counted.previous, now);
      }
      // Nothing ahead of it (the count says so): it starts now.
      if (checks.startIfFirst && place.started === null && ahead === 0) {
        if (checks.opening && openTurn) {
          // Marked running and given its turn in one update (TurnStart.place would update the row again).
          markStartedFor.run(now, checks.opening.id, ticket.id);
          return { ticket, started: true, opened: openTurn(checks.opening) };
        }
        markStarted.run(now, ticket.id);
        return { ticket, started: true };
      }
      return { ticket };
    };

    const claim = db.transaction((entry: PlaceClaim, now: number): ClaimOutcome => {
      leaves.deleteInside();
      const { conversation, thread } = entry;
      const scope = thread ? selectScope.get(conversation.platform, thread.channelId, thread.threadId) : undefined;
      if (!entry.addressed && !scope) return { skipped: "not_addressed" };
      if (entry.claim && insertClaim.run(entry.claim.platform, entry.claim.eventId, now).changes === 0) return { skipped: "duplicate" };
      const key = conversationKey(scope === "channel" && thread ? thread.channelConversation : conversation);
      const order = BigInt(entry.order);
      const placed = { id: Number(insertTicket.run(key, entry.instance, now, order).lastInsertRowid), conversationKey: key };
      const admission = entry.admit ? admitInside(placed, entry.admit, now, { order, started: null }) : undefined;
      return { placed, ...(scope ? { scope } : {}), ...(admission ? { admission } : {}) };
    });
    this.claimInTransaction = (entry, now) => leaves.within(() => claim.immediate(entry, now));

    const admit = db.transaction((ticket: QueueTicket, checks: PlaceChecks, now: number): QueueAdmission => {
      leaves.deleteInside();
      return admitInside(ticket, checks, now);
    });
    this.admitInTransaction = (ticket, checks, now) => leaves.within(() => admit.immediate(ticket, checks, now));

    const start = db.transaction((ticket: QueueTicket, now: number): QueueHead | undefined => {
      leaves.deleteInside();
      const place = selectTicket.get(ticket.id);
      if (!place || place.started !== null) return undefined;
      const blocker = firstInTheWay.get(ticket.conversationKey, ticket.id, place.order, place.order, ticket.id);
      if (blocker !== undefined) return blocker;
      markStarted.run(now, ticket.id);
      return undefined;
    });
    this.startInTransaction = (ticket, now) => leaves.within(() => start.immediate(ticket, now));
  }

  async claim(claim: PlaceClaim): Promise<ClaimOutcome> {
    const now = Date.now();
    const outcome = this.claimInTransaction(claim, now);
    return outcome;
  }

  async admit(ticket: QueueTicket, checks: PlaceChecks): Promise<QueueAdmission> {
    const admission = this.admitInTransaction(ticket, checks, Date.now());
    if ("refused" in admission) this.wake(ticket.conversationKey);
    return admission;
  }

  async waitForTurn(ticket: QueueTicket, options: WaitOptions): Promise<void> {
    const head = new HeadWatch(options.staleAfterMs);
    let pollMs = FIRST_POLL_MS;
    let blocked = false;
    for (;;) {
      options.signal.throwIfAborted();
      const blocker = this.startInTransaction(ticket, Date.now());
      if (blocker === undefined) return;
      if (head.abandoned(blocker.id) || ownPlaceLost(blocker, options.own)) {
        this.deleteTicket.run(blocker.id);
        continue;
      }
      if (!blocked) options.onBlocked?.();
      blocked = true;
      await this.nap(ticket.conversationKey, pollMs, options.signal);
      pollMs = Math.min(pollMs * 2, MAX_POLL_MS);
    }
  }

  /** Deleted with the next transaction of the queue, or a few milliseconds later (see DeferredLeaves). */
  async leave(ticket: QueueTicket): Promise<void> {
    const left = this.leaves.leave(ticket.id);
    // A turn of this process waiting in the conversation looks again now: its look deletes the place first.
    this.wake(ticket.conversationKey);
    await left;
  }

  /** Deletes the places given up and still waiting for a transaction (the store closes). */
  leaveNow(): void {
    this.leaves.flushNow();
  }

  private wake(key: string): void {
    for (const wake of this.waiters.get(key) ?? []) wake();
  }

  /** Sleeps `ms`, less when a place of this conversation is given up in this process; rejects at abort. */
  private async nap(key: string, ms: number, signal: AbortSignal): Promise<void> {
    const nap = new AbortController();
    const set = this.waiters.get(key) ?? new Set();
    const wake = () => nap.abort();
    set.add(wake);
    this.waiters.set(key, set);
    try {
      await abortableSleep(ms, AbortSignal.any([signal, nap.signal]));
    } catch (error) {
      if (signal.aborted) throw error;
    } finally {
      set.delete(wake);
      if (set.size === 0 && this.waiters.get(key) === set) this.waiters.delete(key);
    }
  }
}

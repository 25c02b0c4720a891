import { abortableSleep } from "../abortable-sleep.js";
import { HeadWatch } from "../head-watch.js";
import { takeTurn, type RateCounter } from "../rate-window.js";
import { ownPlaceLost, type QueueAdmission, type QueueEntry, type QueueHead, type QueueTicket, type TurnQueue, type WaitOptions } from "../store.js";
import { conversationKey } from "../types.js";
import type { Db } from "./database.js";

/** How often a turn behind another process's turn looks again: quick at first, then at most this often. */
const FIRST_POLL_MS = 5;
const MAX_POLL_MS = 100;

/** An admission, and whether the place it gave had none before it in its conversation. */
type Admitted = QueueAdmission & { first?: boolean };

/**
 * The turn queue in the file: places are handed out in IMMEDIATE transactions (the write lock
 * orders them), and a turn behind another process's turn polls until that place is gone. Within
 * one process the runner's own queue already orders turns, so the first look nearly always finds
 * the way clear.
 */
export class SqliteTurnQueue implements TurnQueue {
  private readonly depth;
  private readonly insertTicket;
  private readonly deleteTicket;
  private readonly headBefore;
  private readonly selectRate;
  private readonly saveRate;
  private readonly admit: (entry: QueueEntry, key: string, now: number) => Admitted;
  /**
   * Places that had no place before them when taken. Ids only grow, so nothing can come before
   * them later: their wait needs no look at the file (one read transaction less per turn).
   */
  private readonly firstWhenTaken = new Set<number>();

  constructor(db: Db) {
    this.depth = db.prepare<[string], number>(`SELECT COUNT(*) FROM turn_queue WHERE conversation_key = ?`).pluck();
    this.insertTicket = db.prepare<[string, string, number]>(`INSERT INTO turn_queue (conversation_key, instance, entered_at) VALUES (?, ?, ?)`);
    this.deleteTicket = db.prepare<[number]>(`DELETE FROM turn_queue WHERE id = ?`);
    this.headBefore = db.prepare<[string, number], QueueHead>(`SELECT id, instance FROM turn_queue WHERE conversation_key = ? AND id < ? ORDER BY id LIMIT 1`);
    this.selectRate = db.prepare<[string], RateCounter>(`SELECT period, current, previous FROM rate_windows WHERE key = ?`);
    this.saveRate = db.prepare<[string, number, number, number, number]>(
      `INSERT INTO rate_windows (key, period, current, previous, updated_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET period = excluded.period, current = excluded.current, previous = excluded.previous, updated_at = excluded.updated_at`,
    );
    const admit = db.transaction((entry: QueueEntry, key: string, now: number): Admitted => {
      const depth = this.depth.get(key)!;
      if (depth >= entry.maxDepth) return { refused: "queue_full" };
      if (entry.rate) {
        const counted = takeTurn(this.selectRate.get(entry.rate.key), now, entry.rate.windowMs, entry.rate.limit);
        if (!counted) return { refused: "rate_limited" };
        this.saveRate.run(entry.rate.key, counted.period, counted.current, counted.previous, now);
      }
      const id = Number(this.insertTicket.run(key, entry.instance, now).lastInsertRowid);
      return { ticket: { id, conversationKey: key }, first: depth === 0 };
    });
    this.admit = (entry, key, now) => admit.immediate(entry, key, now);
  }

  async enter(entry: QueueEntry): Promise<QueueAdmission> {
    // Noted after the commit: a rolled-back place's id may be handed out again.
    const { first, ...admission } = this.admit(entry, conversationKey(entry.conversation), Date.now());
    if (first && "ticket" in admission) this.firstWhenTaken.add(admission.ticket.id);
    return admission;
  }

  async waitForTurn(ticket: QueueTicket, options: WaitOptions): Promise<void> {
    if (this.firstWhenTaken.delete(ticket.id)) return options.signal.throwIfAborted();
    const head = new HeadWatch(options.staleAfterMs);
    let pollMs = FIRST_POLL_MS;
    let blocked = false;
    for (;;) {
      options.signal.throwIfAborted();
      const first = this.headBefore.get(ticket.conversationKey, ticket.id);
      if (first === undefined) return;
      if (head.abandoned(first.id) || ownPlaceLost(first, options.own)) {
        this.deleteTicket.run(first.id);
        continue;
      }
      if (!blocked) options.onBlocked?.();
      blocked = true;
      await abortableSleep(pollMs, options.signal);
      pollMs = Math.min(pollMs * 2, MAX_POLL_MS);
    }
  }

  async leave(ticket: QueueTicket): Promise<void> {
    this.firstWhenTaken.delete(ticket.id);
    this.deleteTicket.run(ticket.id);
  }
}

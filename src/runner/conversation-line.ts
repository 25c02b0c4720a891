import type { Logger } from "../log.js";
import { abortableSleep } from "../store/abortable-sleep.js";
import type { ClaimOutcome, PlaceClaim, QueueTicket, QueueStore } from "../store/store.js";
import { conversationKey } from "../store/types.js";
import { KeyedQueue } from "./keyed-queue.js";
import { PlaceReleases } from "./place-releases.js";

export interface ConversationLineOptions {
  queue: QueueStore;
  logger: Logger;
  /** A place first in line for longer than this was lost by its process and is dropped. */
  placeHeldAtMostMs: number;
  /** This process run's id (see InstanceLease): the places it takes carry it. */
  instance: string;
}

/** A turn's place in line, and until when it holds back for an earlier message still on its way (see holdUntil). */
export interface LinePlace {
  ticket: QueueTicket;
  holdUntil?: number;
  /** Marked running when it was admitted (nothing was in its way): no wait. */
  started?: boolean;
}

/**
 * One turn at a time per conversation, in the platform's order of its messages, in this process
 * and across the processes sharing the database. Admission runs in call order per conversation;
 * then a turn waits until it is first in the store's turn queue (which orders this process's turns
 * and every other process's alike: a message received here after a later one still goes first),
 * runs, and gives its place up once it has ended.
 */
export class ConversationLine {
  /** Admission per conversation in call order. */
  private readonly arrivals = new KeyedQueue();
  /** This process's admitted turns per conversation (waiting or running). */
  private readonly turns = new Map<string, number>();
  /** Turns waiting for another process's turn in their conversation. */
  private readonly waiting = new Set<AbortController>();
  /** The places this process holds, from their claim until they are given up. */
  private readonly held = new Set<number>();
  /** Conversations with a claim under way (its place may be committed but not known here yet). */
  private readonly claiming = new Map<string, number>();
  private readonly releases: PlaceReleases;
  /** Places of ended turns whose release has not settled yet. */
  private releasing = 0;

  constructor(private readonly options: ConversationLineOptions) {
    this.releases = new PlaceReleases(options.queue, options.logger);
  }

  /**
   * Runs `admit` in call order for `key`; a refusal (`{ reply }`) ends there. An admitted turn
   * (its place in `ticket`) is lined up, and `run` gets it once it is first, everywhere, with a
   * controller that aborts when the process stops; `run` is given `undefined` when the wait was
   * cancelled. Resolves as soon as the turn has its place (or was refused).
   */
  accept<Admitted extends LinePlace, Reply>(
    key: string,
    admit: () => Promise<Admitted | { reply: Reply }>,
    run: (admitted: Admitted, controller: AbortController | undefined) => Promise<Reply>,
  ): Promise<{ reply: Promise<Reply> }> {
    return this.arrivals.run(key, async () => {
      const admitted = await admit();
      if ("reply" in admitted) return { reply: Promise.resolve(admitted.reply) };
      this.turns.set(key, (this.turns.get(key) ?? 0) + 1);
      const reply = this.whenFirst(admitted, run);
      void reply.finally(() => {
        const left = (this.turns.get(key) ?? 1) - 1;
        if (left === 0) this.turns.delete(key);
        else this.turns.set(key, left);
      });
      return { reply };
    });
  }

  /**
   * Claims a message and takes its place (QueueStore.claim): the place is this process's from then
   * until it is given up (giveUp, or the end of its turn), so that a place of this process found in
   * the way and no longer held here is known to be lost.
   */
  async claim(claim: PlaceClaim): Promise<ClaimOutcome> {
    // The place may be committed before the claim returns: meanwhile a place of ours in these
    // conversations (the thread's, or its channel's for a bot thread that continues it) may be this one.
    const keys = [conversationKey(claim.conversation), ...(claim.thread ? [conversationKey(claim.thread.channelConversation)] : [])];
    for (const key of keys) this.claiming.set(key, (this.claiming.get(key) ?? 0) + 1);
    try {
      const outcome = await this.options.queue.claim(claim);
      if ("placed" in outcome) this.held.add(outcome.placed.id);
      return outcome;
    } finally {
      for (const key of keys) {
        const left = this.claiming.get(key)! - 1;
        if (left > 0) this.claiming.set(key, left);
        else this.claiming.delete(key);
      }
    }
  }

  /** A place the store gave up itself (refused when it was checked): no longer this process's. */
  forget(ticket: QueueTicket): void {
    this.held.delete(ticket.id);
  }

  /**
   * Gives up a place: its turn ended, or none will come of it (refused, or failed before it was
   * admitted). No longer held here from now, so this process's next turn in the conversation drops
   * the place itself if the release fails; the release is retried until the store answers.
   */
  async giveUp(ticket: QueueTicket): Promise<void> {
    this.held.delete(ticket.id);
    await this.releases.release(ticket);
  }

  /** Stops the turns waiting for another process's turn (shutdown): theirs get no controller. */
  cancelWaiting(reason: unknown): void {
    for (const controller of this.waiting) controller.abort(reason);
  }

  /** Stops retrying failed releases (shutdown; the store's clean stop releases this process's places). */
  stopRetrying(): Promise<void> {
    return this.releases.stop();
  }

  /** Conversations with a turn being admitted, waiting or running. */
  get activeConversations(): number {
    return Math.max(this.turns.size, this.arrivals.activeKeys);
  }

  /** True while any turn is being admitted, waits or runs, or a place is being given up. */
  get busy(): boolean {
    return this.turns.size > 0 || this.arrivals.activeKeys > 0 || this.releasing > 0;
  }

  private async whenFirst<Admitted extends LinePlace, Reply>(
    admitted: Admitted,
    run: (admitted: Admitted, controller: AbortController | undefined) => Promise<Reply>,
  ): Promise<Reply> {
    try {
      const controller = new AbortController();
      return await run(admitted, (await this.waitForTurn(admitted, controller)) ? controller : undefined);
    } finally {
      // After the reply was shown: the next turn's answer comes after this one's. The reply does
      // not wait for the release: a store may write it with the next turn's own transaction (SQLite),
      // and this process's next turn drops a place of its own it finds in the way and no longer holds.
      this.releasing++;
      void this.giveUp(admitted.ticket).finally(() => this.releasing--);
    }
  }

  /** False when the wait was cancelled. A store failure while waiting lets the turn run rather than hang. */
  private async waitForTurn({ ticket, holdUntil, started }: LinePlace, controller: AbortController): Promise<boolean> {
    if (started) return true;
    this.waiting.add(controller);
    try {
      // An earlier message may still be on its way (to this process or another): its place would come first.
      const holdMs = holdUntil === undefined ? 0 : holdUntil - Date.now();
      if (holdMs > 0) await abortableSleep(holdMs, controller.signal);
      await this.options.queue.waitForTurn(ticket, {
        signal: controller.signal,
        staleAfterMs: this.options.placeHeldAtMostMs,
        // While another message of the conversation is being claimed, a place of ours not known yet may be its.
        own: { instance: this.options.instance, holds: (id) => this.held.has(id) || this.claiming.has(ticket.conversationKey) },
        onBlocked: () => this.options.logger.debug({ place: ticket.id }, "waiting for an earlier turn of this conversation in another process"),
      });
      return true;
    } catch (error) {
      if (controller.signal.aborted) return false;
      this.options.logger.warn({ err: error }, "could not check the conversation's line; running the turn anyway");
      return true;
    } finally {
      this.waiting.delete(controller);
    }
  }
}

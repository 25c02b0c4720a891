import type { Logger } from "../log.js";
import type { QueueTicket, TurnQueue } from "../store/store.js";
import { KeyedQueue } from "./keyed-queue.js";
import { PlaceReleases } from "./place-releases.js";

export interface ConversationLineOptions {
  queue: TurnQueue;
  logger: Logger;
  /** A place first in line for longer than this was lost by its process and is dropped. */
  placeHeldAtMostMs: number;
  /** This process run's id (see InstanceLease): the places it takes carry it. */
  instance: string;
}

/**
 * One turn at a time per conversation, in arrival order, in this process and across the processes
 * sharing the database. Admission runs in call order per conversation (so places in line are taken
 * in arrival order); then a turn waits behind this process's earlier turns (in memory) and behind
 * other processes' (the store's turn queue), runs, and gives its place up once it has ended.
 */
export class ConversationLine {
  /** Admission per conversation in call order. */
  private readonly arrivals = new KeyedQueue();
  /** This process's turns per conversation, one after the other. */
  private readonly turns = new KeyedQueue();
  /** Turns waiting for another process's turn in their conversation. */
  private readonly waiting = new Set<AbortController>();
  /** The places this process's turns hold, from admission until they are given up. */
  private readonly held = new Set<number>();
  /** Conversations with an admission under way (its place may be taken but not yet known here). */
  private readonly admitting = new Map<string, number>();
  private readonly releases: PlaceReleases;

  constructor(private readonly options: ConversationLineOptions) {
    this.releases = new PlaceReleases(options.queue, options.logger);
  }

  /**
   * Runs `admit` in call order for `key`; a refusal (`{ reply }`) ends there. An admitted turn
   * (its place in `ticket`) is lined up, and `run` gets it once it is first, everywhere, with a
   * controller that aborts when the process stops; `run` is given `undefined` when the wait was
   * cancelled. Resolves as soon as the turn has its place (or was refused).
   */
  accept<Admitted extends { ticket: QueueTicket }, Reply>(
    key: string,
    admit: () => Promise<Admitted | { reply: Reply }>,
    run: (admitted: Admitted, controller: AbortController | undefined) => Promise<Reply>,
  ): Promise<{ reply: Promise<Reply> }> {
    return this.arrivals.run(key, async () => {
      this.admitting.set(key, (this.admitting.get(key) ?? 0) + 1);
      let admitted: Admitted | { reply: Reply };
      try {
        admitted = await admit();
        if ("reply" in admitted) return { reply: Promise.resolve(admitted.reply) };
        this.held.add(admitted.ticket.id);
      } finally {
        const left = this.admitting.get(key)! - 1;
        if (left > 0) this.admitting.set(key, left);
        else this.admitting.delete(key);
      }
      const turn = admitted;
      return { reply: this.turns.run(key, () => this.whenFirst(turn, run)) };
    });
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
    return Math.max(this.turns.activeKeys, this.arrivals.activeKeys);
  }

  /** True while any turn is being admitted, waits or runs. */
  get busy(): boolean {
    return this.turns.activeKeys > 0 || this.arrivals.activeKeys > 0;
  }

  private async whenFirst<Admitted extends { ticket: QueueTicket }, Reply>(
    admitted: Admitted,
    run: (admitted: Admitted, controller: AbortController | undefined) => Promise<Reply>,
  ): Promise<Reply> {
    try {
      const controller = new AbortController();
      return await run(admitted, (await this.waitForTurn(admitted.ticket, controller)) ? controller : undefined);
    } finally {
      // After the reply was shown: the next turn's answer comes after this one's. No longer held
      // here, so this process's next turn in the conversation drops the place itself if its release fails.
      this.held.delete(admitted.ticket.id);
      await this.releases.release(admitted.ticket);
    }
  }

  /** False when the wait was cancelled. A store failure while waiting lets the turn run rather than hang. */
  private async waitForTurn(ticket: QueueTicket, controller: AbortController): Promise<boolean> {
    this.waiting.add(controller);
    try {
      await this.options.queue.waitForTurn(ticket, {
        signal: controller.signal,
        staleAfterMs: this.options.placeHeldAtMostMs,
        // While another message of the conversation is being admitted, a place of ours not known yet may be its.
        own: { instance: this.options.instance, holds: (id) => this.held.has(id) || this.admitting.has(ticket.conversationKey) },
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

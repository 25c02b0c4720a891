import type { Logger } from "../log.js";
import { abortableSleep } from "../store/abortable-sleep.js";
import type { QueueTicket, TurnQueue } from "../store/store.js";
import { KeyedQueue } from "./keyed-queue.js";

export interface ConversationLineOptions {
  queue: TurnQueue;
  logger: Logger;
  /** A place first in line for longer than this was lost by its process and is dropped. */
  placeHeldAtMostMs: number;
}

/** A turn's place in line, and until when it holds back for an earlier message still on its way (see holdUntil). */
export interface LinePlace {
  ticket: QueueTicket;
  holdUntil?: number;
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

  constructor(private readonly options: ConversationLineOptions) {}

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

  /** Gives up a place that will not become a turn (refused, or failed before it was admitted). */
  async giveUp(ticket: QueueTicket): Promise<void> {
    await this.options.queue.leave(ticket).catch((error: unknown) => {
      this.options.logger.warn({ err: error }, "could not give up a turn's place in line (it expires on its own)");
    });
  }

  /** Stops the turns waiting for another process's turn (shutdown): theirs get no controller. */
  cancelWaiting(reason: unknown): void {
    for (const controller of this.waiting) controller.abort(reason);
  }

  /** Conversations with a turn being admitted, waiting or running. */
  get activeConversations(): number {
    return Math.max(this.turns.size, this.arrivals.activeKeys);
  }

  /** True while any turn is being admitted, waits or runs. */
  get busy(): boolean {
    return this.turns.size > 0 || this.arrivals.activeKeys > 0;
  }

  private async whenFirst<Admitted extends LinePlace, Reply>(
    admitted: Admitted,
    run: (admitted: Admitted, controller: AbortController | undefined) => Promise<Reply>,
  ): Promise<Reply> {
    try {
      const controller = new AbortController();
      return await run(admitted, (await this.waitForTurn(admitted, controller)) ? controller : undefined);
    } finally {
      // After the reply was shown: the next turn's answer comes after this one's.
      await this.options.queue.leave(admitted.ticket).catch((error: unknown) => {
        this.options.logger.warn({ err: error }, "could not give up a turn's place in line (it expires on its own)");
      });
    }
  }

  /** False when the wait was cancelled. A store failure while waiting lets the turn run rather than hang. */
  private async waitForTurn({ ticket, holdUntil }: LinePlace, controller: AbortController): Promise<boolean> {
    this.waiting.add(controller);
    try {
      // An earlier message may still be on its way (to this process or another): its place would come first.
      const holdMs = holdUntil === undefined ? 0 : holdUntil - Date.now();
      if (holdMs > 0) await abortableSleep(holdMs, controller.signal);
      await this.options.queue.waitForTurn(ticket, {
        signal: controller.signal,
        staleAfterMs: this.options.placeHeldAtMostMs,
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

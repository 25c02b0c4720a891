import type { PlatformOrder } from "../contract/inbound.js";

let lastArrival = 0;

/**
 * A position in arrival order, for messages without one of their platform's (the terminal, a
 * question handed to the runner directly): this process's clock in microseconds, always increasing.
 * Such messages come from one process only, so no other process's clock is compared with it.
 */
export function arrivalOrder(): string {
  lastArrival = Math.max(lastArrival + 1, Date.now() * 1000);
  return String(lastArrival);
}

/**
 * Until when a turn holds back for an earlier message of its conversation that may still be on
 * its way (this process's clock): `holdMs` after the platform stamped the message, so a message
 * that was itself delivered late waits no longer; never longer than `holdMs` from now, whatever
 * the clocks say. Undefined where the platform delivers a conversation's messages in order.
 */
export function holdUntil(order: PlatformOrder | undefined, holdMs: number, now = Date.now()): number | undefined {
  if (order?.sentAt === undefined || holdMs <= 0) return undefined;
  return Math.min(now + holdMs, Math.max(now, order.sentAt + holdMs));
}

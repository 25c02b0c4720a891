/**
 * A user's turns per window (RATE_LIMIT_PER_USER per minute) as one row: the count in the current
 * fixed window and in the one before. The turns of the last `windowMs` are estimated as the
 * current count plus the previous one's share that still overlaps (rounded up): a sliding window
 * in constant time and space, whatever the limit, stricter rather than looser at a window's edge.
 * PostgreSQL's admit_turn_place() does the same sums.
 */
export interface RateCounter {
  /** The current window's number: its start time / windowMs. */
  period: number;
  current: number;
  previous: number;
}

/** The counter with one more turn, or undefined when the limit is reached (nothing changes then). */
export function takeTurn(stored: RateCounter | undefined, now: number, windowMs: number, limit: number): RateCounter | undefined {
  const period = Math.floor(now / windowMs);
  const [current, previous] = stored?.period === period ? [stored.current, stored.previous] : stored?.period === period - 1 ? [0, stored.current] : [0, 0];
  const elapsed = (now - period * windowMs) / windowMs;
  if (current + Math.ceil(previous * (1 - elapsed)) >= limit) return undefined;
  return { period, current: current + 1, previous };
}

import { setTimeout as sleep } from "node:timers/promises";
import type { RateLimitedError } from "../contract/surface.js";
import { hasCode } from "../errors.js";

/** The longest a write waits for a platform's rate limit before it gives up (a platform asking for minutes is refused). */
const MAX_WAIT_MS = 30_000;
const ATTEMPTS = 3;

/**
 * Runs a write the user must see (a step, an answer's final state); when the platform says it
 * is rate limited, waits as long as it asks (at most 30 s) and tries again, three times at most.
 * A wait that would end past `deadline()` (performance.now() time) is not started: the write fails.
 */
export async function waitingOutRateLimits<T>(write: () => Promise<T>, deadline: () => number = () => Number.POSITIVE_INFINITY): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (!hasCode<RateLimitedError>(error, "platform_rate_limited") || attempt >= ATTEMPTS || error.retryAfterMs > MAX_WAIT_MS) throw error;
      if (performance.now() + error.retryAfterMs > deadline()) throw error;
      await sleep(Math.max(0, error.retryAfterMs));
    }
  }
}

import type { Logger } from "../log.js";

/** The first retry of a failed write, doubling up to the longest wait between two. */
const FIRST_RETRY_MS = 100;
const MAX_RETRY_MS = 2_000;

export interface RetryOptions {
  /** What the write does, for the log ("record the answered turn"). */
  what: string;
  logger: Logger;
  /** Retries stop once this long has passed since the first attempt; the last error is thrown. */
  withinMs: number;
  /** Retries stop at once when it aborts (shutdown); the last error is thrown. */
  signal: AbortSignal;
}

/**
 * Runs a store write, and runs it again with backoff while it fails, for a bounded time: a short
 * outage (PostgreSQL restarting or unreachable, the SQLite file busy or full) costs the turn a
 * delay, not its record. The write must be safe to repeat (see TurnStore.finish).
 */
export async function retryStoreWrite<T>(write: () => Promise<T>, options: RetryOptions): Promise<T> {
  const start = Date.now();
  let delayMs = FIRST_RETRY_MS;
  for (let attempt = 1; ; attempt++) {
    try {
      const result = await write();
      if (attempt > 1) options.logger.info({ attempts: attempt, ms: Date.now() - start }, `could ${options.what} after the store answered again`);
      return result;
    } catch (error) {
      const waited = Date.now() - start;
      if (options.signal.aborted || waited + delayMs > options.withinMs) throw error;
      if (attempt === 1) options.logger.warn({ err: error }, `could not ${options.what}; trying again for up to ${Math.round(options.withinMs / 1000)} s`);
      await sleep(delayMs, options.signal);
      delayMs = Math.min(delayMs * 2, MAX_RETRY_MS);
    }
  }
}

/** Waits `ms`, or less when the signal aborts (the caller then tries once more and stops). */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}

import { setTimeout as sleep } from "node:timers/promises";
import type { ModelErrorVerdict } from "./model.js";

export interface RetryPolicy {
  /** Retries after the first attempt (OPENAI_MAX_RETRIES). */
  maxRetries: number;
  /** The longest wait before a retry, whatever the server asks (OPENAI_MAX_RETRY_DELAY_MS). */
  maxDelayMs: number;
}

const FIRST_BACKOFF_MS = 500;

/**
 * How long to wait before retry number `attempt` (0 for the first retry), or undefined when the
 * error is not worth retrying (its provider said so: rate limits, overload, server errors and
 * lost connections are). A server's Retry-After is honoured up to `maxDelayMs`: an endpoint that
 * asks for an hour must not hold a turn, its conversation and shutdown for an hour.
 */
export function retryDelayMs(verdict: ModelErrorVerdict, attempt: number, policy: RetryPolicy, random = Math.random): number | undefined {
  if (!verdict.retryable) return undefined;
  if (verdict.retryAfterMs !== undefined) return Math.min(verdict.retryAfterMs, policy.maxDelayMs);
  const backoff = Math.min(FIRST_BACKOFF_MS * 2 ** attempt, policy.maxDelayMs);
  // Up to a quarter less, so that turns failing together do not retry together.
  return Math.round(backoff * (1 - random() * 0.25));
}

/** Waits, but gives up at once (rejecting) when the signal aborts; no timer is left behind. */
export function waitBeforeRetry(ms: number, signal: AbortSignal): Promise<void> {
  return sleep(ms, undefined, { signal });
}

/** The wait a response's headers ask for: retry-after-ms (OpenAI's), else Retry-After in seconds or as a date. */
export function askedDelayMs(headers: Headers | undefined): number | undefined {
  const milliseconds = Number.parseFloat(headers?.get("retry-after-ms") ?? "");
  if (Number.isFinite(milliseconds) && milliseconds >= 0) return milliseconds;
  const retryAfter = headers?.get("retry-after");
  if (!retryAfter) return undefined;
  const seconds = Number.parseFloat(retryAfter);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(retryAfter);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** Whether an HTTP status is worth another attempt, unless the server said otherwise in x-should-retry (both SDKs' rule). */
export function retryableStatus(status: number, headers: Headers | undefined): boolean {
  const serverSays = headers?.get("x-should-retry");
  if (serverSays === "true") return true;
  if (serverSays === "false") return false;
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

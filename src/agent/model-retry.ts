import { setTimeout as sleep } from "node:timers/promises";
import OpenAI from "openai";

export interface RetryPolicy {
  /** Retries after the first attempt (OPENAI_MAX_RETRIES). */
  maxRetries: number;
  /** The longest wait before a retry, whatever the server asks (OPENAI_MAX_RETRY_DELAY_MS). */
  maxDelayMs: number;
}

const FIRST_BACKOFF_MS = 500;

/**
 * How long to wait before retry number `attempt` (0 for the first retry), or undefined when the
 * error is not worth retrying: only rate limits, server errors and lost connections are.
 * A server's Retry-After (or retry-after-ms) is honoured up to `maxDelayMs`: an endpoint that
 * asks for an hour must not hold a turn, its conversation and shutdown for an hour.
 */
export function retryDelayMs(error: unknown, attempt: number, policy: RetryPolicy, random = Math.random): number | undefined {
  if (!isRetryable(error)) return undefined;
  const asked = error instanceof OpenAI.APIError ? askedDelayMs(error.headers) : undefined;
  if (asked !== undefined) return Math.min(asked, policy.maxDelayMs);
  const backoff = Math.min(FIRST_BACKOFF_MS * 2 ** attempt, policy.maxDelayMs);
  // Up to a quarter less, so that turns failing together do not retry together.
  return Math.round(backoff * (1 - random() * 0.25));
}

/** Waits, but gives up at once (rejecting) when the signal aborts; no timer is left behind. */
export function waitBeforeRetry(ms: number, signal: AbortSignal): Promise<void> {
  return sleep(ms, undefined, { signal });
}

function isRetryable(error: unknown): boolean {
  if (error instanceof OpenAI.APIConnectionError) return true; // includes the request timeout
  if (!(error instanceof OpenAI.APIError) || error.status === undefined) return false;
  const serverSays = error.headers?.get("x-should-retry");
  if (serverSays === "true") return true;
  if (serverSays === "false") return false;
  return error.status === 408 || error.status === 409 || error.status === 429 || error.status >= 500;
}

function askedDelayMs(headers: Headers | undefined): number | undefined {
  const milliseconds = Number.parseFloat(headers?.get("retry-after-ms") ?? "");
  if (Number.isFinite(milliseconds) && milliseconds >= 0) return milliseconds;
  const retryAfter = headers?.get("retry-after");
  if (!retryAfter) return undefined;
  const seconds = Number.parseFloat(retryAfter);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(retryAfter);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

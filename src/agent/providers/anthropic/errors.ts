import Anthropic from "@anthropic-ai/sdk";
import type { ModelErrorVerdict } from "../../model.js";
import { askedDelayMs, retryableStatus } from "../../model-retry.js";

/** Anthropic's status for "out of capacity, try again" (overloaded_error). */
const OVERLOADED = 529;

/** What the Anthropic client threw: lost connections, 408/409/429, 5xx and 529 (overloaded) are worth a retry, after its retry-after. */
export function classifyAnthropicError(error: unknown): ModelErrorVerdict {
  if (error instanceof Anthropic.APIConnectionTimeoutError) return { failure: "timeout", retryable: true };
  if (error instanceof Anthropic.APIConnectionError) return { failure: "unreachable", retryable: true };
  if (!(error instanceof Anthropic.APIError) || error.status === undefined) return { failure: "bad_request", retryable: false };
  const retryable = retryableStatus(error.status, error.headers);
  const verdict: ModelErrorVerdict = { failure: failureOf(error), retryable };
  const asked = retryable ? askedDelayMs(error.headers) : undefined;
  if (asked !== undefined) verdict.retryAfterMs = asked;
  return verdict;
}

function failureOf(error: InstanceType<typeof Anthropic.APIError>): ModelErrorVerdict["failure"] {
  if (error.status === OVERLOADED) return "overloaded";
  if (error instanceof Anthropic.RateLimitError) return "rate_limited";
  if (error instanceof Anthropic.AuthenticationError || error instanceof Anthropic.PermissionDeniedError) return "auth";
  if ((error.status ?? 0) >= 500) return "server_error";
  return "bad_request";
}

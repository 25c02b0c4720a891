import OpenAI from "openai";
import type { ModelErrorVerdict } from "../../model.js";
import { askedDelayMs, retryableStatus } from "../../model-retry.js";

/** What the openai client threw: lost connections and 408/409/429/5xx are worth a retry (unless x-should-retry says no). */
export function classifyOpenAIError(error: unknown): ModelErrorVerdict {
  if (error instanceof OpenAI.APIConnectionTimeoutError) return { failure: "timeout", retryable: true };
  if (error instanceof OpenAI.APIConnectionError) return { failure: "unreachable", retryable: true };
  if (!(error instanceof OpenAI.APIError) || error.status === undefined) return { failure: "bad_request", retryable: false };
  const retryable = retryableStatus(error.status, error.headers);
  const verdict: ModelErrorVerdict = { failure: failureOf(error), retryable };
  const asked = retryable ? askedDelayMs(error.headers) : undefined;
  if (asked !== undefined) verdict.retryAfterMs = asked;
  return verdict;
}

function failureOf(error: InstanceType<typeof OpenAI.APIError>): ModelErrorVerdict["failure"] {
  if (error instanceof OpenAI.RateLimitError) return "rate_limited";
  if (error instanceof OpenAI.AuthenticationError || error instanceof OpenAI.PermissionDeniedError) return "auth";
  if ((error.status ?? 0) >= 500) return "server_error";
  return "bad_request";
}

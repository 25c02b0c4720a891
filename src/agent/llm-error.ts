import OpenAI from "openai";

/** `interrupted`: a streamed answer broke off part-way through (it is not retried: part of it was shown). */
export type LlmFailure = "unreachable" | "timeout" | "rate_limited" | "server_error" | "auth" | "bad_request" | "interrupted";

/** A model call that failed for good (after ModelCaller's retries): carries a message fit for users. */
export class LlmError extends Error {
  override readonly name = "LlmError";
  constructor(
    readonly failure: LlmFailure,
    readonly userMessage: string,
    options: { cause: unknown },
  ) {
    super(`model call failed (${failure}): ${(options.cause as Error)?.message ?? String(options.cause)}`, options);
  }
}

/** Turns whatever the openai client threw into an LlmError; the user never sees raw API text. */
export function toLlmError(error: unknown): LlmError {
  if (error instanceof LlmError) return error;
  const make = (failure: LlmFailure, message: string) => new LlmError(failure, message, { cause: error });
  if (error instanceof OpenAI.APIConnectionTimeoutError) {
    return make("timeout", "The language model took too long to answer. Please try again in a moment.");
  }
  if (error instanceof OpenAI.APIConnectionError) {
    return make("unreachable", "I can't reach the language model right now. Please try again in a moment.");
  }
  if (error instanceof OpenAI.RateLimitError) {
    return make("rate_limited", "The language model is busy (rate limited). Please try again in a minute.");
  }
  if (error instanceof OpenAI.AuthenticationError || error instanceof OpenAI.PermissionDeniedError) {
    return make("auth", "The language model refused the bot's credentials. An admin needs to check the configuration.");
  }
  if (error instanceof OpenAI.APIError && (error.status ?? 0) >= 500) {
    return make("server_error", "The language model had an internal error. Please try again in a moment.");
  }
  return make("bad_request", "The language model could not handle this request. An admin can find the details in the log.");
}

import type { ModelErrorVerdict, ModelFailure } from "./model.js";
import { BotError, hasCode } from "../errors.js";

/** What the user is told for each failure; the user never sees raw API text. */
const USER_MESSAGES: Record<ModelFailure, string> = {
  timeout: "The language model took too long to answer. Please try again in a moment.",
  unreachable: "I can't reach the language model right now. Please try again in a moment.",
  rate_limited: "The language model is busy (rate limited). Please try again in a minute.",
  overloaded: "The language model is overloaded right now. Please try again in a moment.",
  auth: "The language model refused the bot's credentials. An admin needs to check the configuration.",
  server_error: "The language model had an internal error. Please try again in a moment.",
  bad_request: "The language model could not handle this request. An admin can find the details in the log.",
  interrupted: "The language model stopped answering part-way through. Please try again in a moment.",
};

/**
 * A model call that failed for good (after ModelCaller's retries): carries a message fit for users.
 * Its own message names the failure only; the provider's words stay in `cause`, which the log
 * (pino's `err`) and the audit (errorDetail) each append once. Repeating them here printed them twice.
 */
export class LlmError extends BotError<"model_failed"> {
  override readonly name = "LlmError";
  constructor(
    readonly failure: ModelFailure,
    readonly userMessage: string,
    options: { cause: unknown },
  ) {
    super("model_failed", `model call failed (${failure})`, options);
  }
}

/** The LlmError for a failure, with the user's words for it. */
export function llmError(failure: ModelFailure, cause: unknown): LlmError {
  return new LlmError(failure, USER_MESSAGES[failure], { cause });
}

/** Turns what a model call threw, as its provider read it, into an LlmError. */
export function toLlmError(error: unknown, verdict: ModelErrorVerdict): LlmError {
  return hasCode<LlmError>(error, "model_failed") ? error : llmError(verdict.failure, error);
}

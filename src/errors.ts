/**
 * The kinds of failure the bot names, each once. Every error class of the bot's own extends
 * BotError with one of these, and code that decides what to do about a failure asks its code
 * (`hasCode`), not its class: a code survives a second copy of a module, a rewrapped error, a log
 * line and a test's stand-in, and the list of what can go wrong is here to read.
 */
export type BotErrorCode =
  /** The environment does not configure a bot that can start (ConfigError). */
  | "config_invalid"
  /** MCP_CONFIG does not describe servers the bot can start (McpConfigError). */
  | "mcp_config_invalid"
  /** A model call failed for good, after retries; its `failure` says how (LlmError). */
  | "model_failed"
  /** A model call not made because a spending budget is used up (BudgetReached). */
  | "budget_reached"
  /** The model's text could not be read as the ReAct protocol's action or answer (OutputParseError). */
  | "model_output_unreadable"
  /** The turn was stopped (a cancel, a shutdown) while a tool ran (TurnCancelled). */
  | "turn_cancelled"
  /** A bounded fetch failed in an expected way; its `failure` says how (BoundedFetchError). */
  | "fetch_failed"
  /** A platform asked the bot to slow down (RateLimitedError). */
  | "platform_rate_limited"
  /** A platform will not, or no longer, stream this message natively (StreamUnavailableError). */
  | "stream_unavailable"
  /** A file a platform could not hand over (FileUnavailable). */
  | "file_unavailable"
  /** No installation for the workspace a platform's event names (the Slack installation store). */
  | "not_installed"
  /** A sealed value no configured key opens (SecretsError). */
  | "secret_unreadable"
  /** The PostgreSQL database a copy from SQLite was aimed at already holds rows. */
  | "copy_target_not_empty"
  /** A tool defined wrongly, or twice (define-tool, the registry). */
  | "tool_invalid"
  /** A knowledge tool's service failed; the message is fit for the model (KnowledgeError). */
  | "knowledge_failed"
  /** A CPU-bound task the worker pool could not finish (CpuTaskError). */
  | "cpu_task_failed"
  /** An MCP server not running when one of its tools is called. */
  | "mcp_unavailable"
  /** The console: no such page or record (NotFound). */
  | "not_found"
  /** The console: the signed-in person may not see this (Forbidden). */
  | "forbidden"
  /** The console: a sign-in server's answer could not be used (SignInError). */
  | "sign_in_failed";

/** The base of the bot's own errors: a message for the log, a code for deciding. */
export class BotError<C extends BotErrorCode = BotErrorCode> extends Error {
  override name = "BotError";
  constructor(
    readonly code: C,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/**
 * Whether `error` is one of the bot's errors with this code. `E` is the class that carries the
 * code, named only as a type, for the fields it adds (`hasCode<LlmError>(error, "model_failed")`).
 */
export function hasCode<E extends BotError = BotError>(error: unknown, code: E["code"]): error is E {
  // Not `instanceof BotError`: an error made by another copy of this module has the code too. No
  // other library's codes look like these (Node's are ECONNRESET, ERR_…).
  return error instanceof Error && (error as { code?: unknown }).code === code;
}

import Anthropic from "@anthropic-ai/sdk";
import { clientFetch } from "../../../net/keep-alive-fetch.js";

export interface AnthropicConnection {
  apiKey?: string;
  baseURL?: string;
  timeoutMs: number;
  /** The Messages API requires a cap on each answer's tokens (ANTHROPIC_MAX_TOKENS). */
  maxTokens: number;
}

/**
 * The Anthropic client. The key is always passed, so the SDK never looks for credentials of its
 * own (its environment variables, profile files); a local server ignores it. It does not retry:
 * ModelCaller does, with waits a turn can cancel. Requests go over node:http with keep-alive.
 */
export function createAnthropicClient(connection: AnthropicConnection): Anthropic {
  return new Anthropic({
    apiKey: connection.apiKey ?? "not-needed",
    baseURL: connection.baseURL,
    maxRetries: 0,
    timeout: connection.timeoutMs,
    fetch: clientFetch(),
  });
}

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
 * The Anthropic client. The key and the address are always passed, so the SDK never looks for
 * settings or credentials of its own (its environment variables, profile files). It does not retry:
 * ModelCaller does, with waits a turn can cancel. Requests go over node:http with keep-alive.
 */
export function createAnthropicClient(connection: AnthropicConnection): Anthropic {
  return new Anthropic({
    apiKey: connection.apiKey ?? "not-needed",
    // Explicit, so that the configuration is the only source (the SDK would read the environment itself).
    baseURL: connection.baseURL ?? "https://api.anthropic.com",
    maxRetries: 0,
    timeout: connection.timeoutMs,
    fetch: clientFetch(),
  });
}

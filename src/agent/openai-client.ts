import OpenAI from "openai";
import { nodeHttpFetch } from "./model-transport.js";

export interface ModelConnection {
  apiKey?: string;
  baseURL?: string;
  timeoutMs: number;
}

/** The global fetch as Node provides it, seen before anything could replace it. */
const builtinFetch = globalThis.fetch;

/**
 * The openai client, for OpenAI itself or any compatible server (Ollama, vLLM, llama.cpp, LM Studio).
 * Local servers ignore the key, but the client insists on one. The client does not retry:
 * ModelCaller does, with waits a turn can cancel and a cap on what Retry-After may ask.
 * Requests go over node:http with keep-alive (see nodeHttpFetch), unless something replaced the
 * global fetch before the client was made (a test double, an interceptor): that one is used.
 */
export function createOpenAIClient(connection: ModelConnection): OpenAI {
  return new OpenAI({
    apiKey: connection.apiKey ?? "not-needed",
    baseURL: connection.baseURL,
    maxRetries: 0,
    timeout: connection.timeoutMs,
    ...(globalThis.fetch === builtinFetch ? { fetch: nodeHttpFetch() } : {}),
  });
}

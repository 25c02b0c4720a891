import OpenAI from "openai";
import { clientFetch } from "../../../net/keep-alive-fetch.js";

export interface ModelConnection {
  apiKey?: string;
  baseURL?: string;
  timeoutMs: number;
}

/**
 * The openai client, for OpenAI itself or any compatible server (Ollama, vLLM, llama.cpp, LM Studio).
 * Local servers ignore the key, but the client insists on one. The client does not retry:
 * ModelCaller does, with waits a turn can cancel and a cap on what Retry-After may ask.
 * Requests go over node:http with keep-alive (see clientFetch).
 */
export function createOpenAIClient(connection: ModelConnection): OpenAI {
  return new OpenAI({
    apiKey: connection.apiKey ?? "not-needed",
    baseURL: connection.baseURL,
    maxRetries: 0,
    timeout: connection.timeoutMs,
    fetch: clientFetch(),
    // The chat model sends its body as bytes it serialized itself (OpenAIChatModel), which the SDK
    // sends as they are: the JSON type comes from here rather than from each request's options.
    defaultHeaders: { "content-type": "application/json" },
  });
}

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
 * Requests go over node:http with keep-alive (see clientFetch). Chat completions do not go through
 * it: the CompletionsEndpoint sends them with what it resolved (address, key, organization, project).
 */
export function createOpenAIClient(connection: ModelConnection): OpenAI {
  return new OpenAI({
    apiKey: connection.apiKey ?? "not-needed",
    baseURL: connection.baseURL,
    maxRetries: 0,
    timeout: connection.timeoutMs,
    fetch: clientFetch(),
  });
}

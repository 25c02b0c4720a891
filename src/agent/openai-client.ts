import OpenAI from "openai";

export interface ModelConnection {
  apiKey?: string;
  baseURL?: string;
  maxRetries: number;
  timeoutMs: number;
}

/**
 * The openai client, for OpenAI itself or any compatible server (Ollama, vLLM, llama.cpp, LM Studio).
 * Local servers ignore the key, but the client insists on one.
 */
export function createOpenAIClient(connection: ModelConnection): OpenAI {
  return new OpenAI({
    apiKey: connection.apiKey ?? "not-needed",
    baseURL: connection.baseURL,
    maxRetries: connection.maxRetries,
    timeout: connection.timeoutMs,
  });
}

import type OpenAI from "openai";
import { toLlmError } from "./llm-error.js";
import { TurnCancelled } from "./tool-invoker.js";
import type { Usage } from "./types.js";

type CompletionParams = Omit<OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming, "model">;

/**
 * One turn's access to the model: adds up token usage, turns client errors into LlmError
 * (the SDK has already retried 429/5xx with backoff), and a cancelled turn into TurnCancelled.
 */
export class ModelCaller {
  constructor(
    private readonly client: OpenAI,
    private readonly model: string,
    readonly usage: Usage,
  ) {}

  async complete(params: CompletionParams, signal: AbortSignal): Promise<OpenAI.Chat.Completions.ChatCompletionMessage> {
    let response: OpenAI.Chat.Completions.ChatCompletion;
    try {
      response = await this.client.chat.completions.create({ ...params, model: this.model, stream: false }, { signal });
    } catch (error) {
      if (signal.aborted) throw new TurnCancelled("the turn was cancelled", { cause: error });
      throw toLlmError(error);
    }
    this.usage.promptTokens += response.usage?.prompt_tokens ?? 0;
    this.usage.completionTokens += response.usage?.completion_tokens ?? 0;
    this.usage.totalTokens += response.usage?.total_tokens ?? 0;
    const message = response.choices?.[0]?.message;
    if (!message) throw toLlmError(new Error("the model's response had no choices"));
    return message;
  }

  /** A side question from a tool: no tools, no memory. */
  async ask(prompt: string, signal: AbortSignal): Promise<string> {
    const message = await this.complete({ messages: [{ role: "user", content: prompt }] }, signal);
    return message.content ?? "";
  }
}

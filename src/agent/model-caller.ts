import type OpenAI from "openai";
import { toLlmError } from "./llm-error.js";
import { retryDelayMs, waitBeforeRetry, type RetryPolicy } from "./model-retry.js";
import { TurnCancelled } from "./tool-invoker.js";
import type { Usage } from "./types.js";

type CompletionParams = Omit<OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming, "model">;

/**
 * One turn's access to the model: adds up token usage, retries 429/5xx and lost connections
 * itself (the client's own retries are off: their waits cannot be cancelled), turns what still
 * fails into LlmError, and a cancelled turn, even mid-wait, into TurnCancelled.
 */
export class ModelCaller {
  constructor(
    private readonly client: OpenAI,
    private readonly model: string,
    readonly usage: Usage,
    private readonly retry: RetryPolicy,
  ) {}

  async complete(params: CompletionParams, signal: AbortSignal): Promise<OpenAI.Chat.Completions.ChatCompletionMessage> {
    const response = await this.create(params, signal);
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

  private async create(params: CompletionParams, signal: AbortSignal): Promise<OpenAI.Chat.Completions.ChatCompletion> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.client.chat.completions.create({ ...params, model: this.model, stream: false }, { signal });
      } catch (error) {
        if (signal.aborted) throw new TurnCancelled("the turn was cancelled", { cause: error });
        const delay = attempt < this.retry.maxRetries ? retryDelayMs(error, attempt, this.retry) : undefined;
        if (delay === undefined) throw toLlmError(error);
        try {
          await waitBeforeRetry(delay, signal);
        } catch {
          throw new TurnCancelled("the turn was cancelled", { cause: error });
        }
      }
    }
  }
}

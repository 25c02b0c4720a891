import type OpenAI from "openai";
import { toLlmError } from "./llm-error.js";
import { retryDelayMs, waitBeforeRetry, type RetryPolicy } from "./model-retry.js";
import { addUsage, readStream, type StreamLimits } from "./model-stream.js";
import { TurnCancelled } from "./tool-invoker.js";
import type { Usage } from "./types.js";

type CompletionParams = Omit<OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming, "model">;
type Message = OpenAI.Chat.Completions.ChatCompletionMessage;

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
    private readonly limits: StreamLimits = { idleTimeoutMs: 60_000 },
  ) {}

  async complete(params: CompletionParams, signal: AbortSignal): Promise<Message> {
    const response = await this.withRetries(signal, () => this.client.chat.completions.create({ ...params, model: this.model, stream: false }, { signal }));
    if (response.usage) addUsage(this.usage, response.usage);
    const message = response.choices?.[0]?.message;
    if (!message) throw toLlmError(new Error("the model's response had no choices"));
    return message;
  }

  /**
   * The same call, streamed: text reaches `onText` as it arrives, and the whole message is
   * returned at the end, with usage counted from the stream's last chunk. Only the request is
   * retried; a stream that breaks after it began is not (part of it may have been shown).
   */
  async stream(params: CompletionParams, signal: AbortSignal, onText: (text: string) => void): Promise<Message> {
    const stream = await this.withRetries(signal, () =>
      this.client.chat.completions.create({ ...params, model: this.model, stream: true, stream_options: { include_usage: true } }, { signal }),
    );
    return readStream(stream, this.usage, onText, signal, this.limits);
  }

  /** A side question from a tool: no tools, no memory. */
  async ask(prompt: string, signal: AbortSignal): Promise<string> {
    const message = await this.complete({ messages: [{ role: "user", content: prompt }] }, signal);
    return message.content ?? "";
  }

  private async withRetries<T>(signal: AbortSignal, send: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await send();
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

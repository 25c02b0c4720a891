import { toLlmError } from "./llm-error.js";
import type { Model, ModelReply, ModelRequest, Usage } from "./model.js";
import { retryDelayMs, waitBeforeRetry, type RetryPolicy } from "./model-retry.js";
import { addUsage, readStream, type StreamLimits } from "./model-stream.js";
import { TurnCancelled } from "./tool-invoker.js";

/**
 * One turn's access to its model: adds up token usage, retries what the provider calls
 * retryable itself (the clients' own retries are off: their waits cannot be cancelled), turns
 * what still fails into LlmError, and a cancelled turn, even mid-wait, into TurnCancelled.
 */
export class ModelCaller {
  constructor(
    private readonly model: Model,
    readonly usage: Usage,
    private readonly retry: RetryPolicy,
    private readonly limits: StreamLimits = { idleTimeoutMs: 60_000 },
  ) {}

  async complete(request: ModelRequest, signal: AbortSignal): Promise<ModelReply> {
    const reply = await this.withRetries(signal, () => this.model.complete(request, signal));
    if (reply.usage) addUsage(this.usage, reply.usage);
    return reply;
  }

  /**
   * The same call, streamed: text reaches `onText` as it arrives, and the whole reply is
   * returned at the end, with usage counted from what the stream reported. Only the request is
   * retried; a stream that breaks after it began is not (part of it may have been shown).
   */
  async stream(request: ModelRequest, signal: AbortSignal, onText: (text: string) => void): Promise<ModelReply> {
    const stream = await this.withRetries(signal, () => this.model.stream(request, signal));
    return readStream(stream, this.usage, onText, signal, this.limits);
  }

  /** A side question from a tool: no tools, no memory. */
  async ask(prompt: string, signal: AbortSignal): Promise<string> {
    const reply = await this.complete({ messages: [{ role: "user", content: prompt }] }, signal);
    return reply.text ?? "";
  }

  private async withRetries<T>(signal: AbortSignal, send: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await send();
      } catch (error) {
        if (signal.aborted) throw new TurnCancelled("the turn was cancelled", { cause: error });
        const verdict = this.model.classifyError(error);
        const delay = attempt < this.retry.maxRetries ? retryDelayMs(verdict, attempt, this.retry) : undefined;
        if (delay === undefined) throw toLlmError(error, verdict);
        try {
          await waitBeforeRetry(delay, signal);
        } catch {
          throw new TurnCancelled("the turn was cancelled", { cause: error });
        }
      }
    }
  }
}

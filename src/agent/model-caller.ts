import { BudgetReached, type CallBudget, type CallPermit } from "./call-budget.js";
import { toLlmError } from "./llm-error.js";
import type { CallPurpose, CallTag, Model, ModelCallObserver, ModelReply, ModelRequest, Usage } from "./model.js";
import { retryDelayMs, waitBeforeRetry, type RetryPolicy } from "./model-retry.js";
import { addUsage, readStream, type StreamLimits } from "./model-stream.js";
import { promptTokens } from "./prompt-tokens.js";
import { TurnCancelled } from "./tool-invoker.js";
import { emptyUsage } from "./types.js";
import { hasCode } from "../errors.js";

/** The budget every call of a turn is checked against, and the model's name as budgets and prices know it. */
export interface CallerBudget {
  model: string;
  budget: CallBudget;
}

/**
 * One turn's access to its model: adds up token usage, retries what the provider calls
 * retryable itself (the clients' own retries are off: their waits cannot be cancelled), turns
 * what still fails into LlmError, and a cancelled turn, even mid-wait, into TurnCancelled.
 * With a budget, every attempt is checked first (BudgetReached when it may not go) and sent with
 * max_tokens cut to what remains, then settled with its real usage.
 */
export class ModelCaller {
  /** Set once a call's answer used all the tokens a budget left it: the turn says so. */
  budgetNotice: string | undefined;

  constructor(
    private readonly model: Model,
    readonly usage: Usage,
    private readonly retry: RetryPolicy,
    private readonly limits: StreamLimits = { idleTimeoutMs: 60_000 },
    private readonly budget?: CallerBudget,
    /** Hears of each request the turn makes (its record), tagged with its purpose and whether it is a retry. */
    private readonly calls?: ModelCallObserver,
  ) {}

  async complete(request: ModelRequest, signal: AbortSignal, purpose: CallPurpose = "turn"): Promise<ModelReply> {
    return this.withRetries(signal, async (attempt) => {
      const permit = await this.permit(request);
      let reply: ModelReply | undefined;
      try {
        reply = await this.model.complete(withMax(request, permit), signal, this.tag(purpose, attempt));
        if (reply.usage) addUsage(this.usage, reply.usage);
        return reply;
      } finally {
        await this.settle(permit, reply?.usage);
      }
    });
  }

  /**
   * The same call, streamed: text reaches `onText` as it arrives, and the whole reply is
   * returned at the end, with usage counted from what the stream reported. Only the request is
   * retried; a stream that breaks after it began is not (part of it may have been shown).
   */
  async stream(request: ModelRequest, signal: AbortSignal, onText: (text: string) => void): Promise<ModelReply> {
    let permit: CallPermit | undefined;
    const stream = await this.withRetries(signal, async (attempt) => {
      permit = await this.permit(request);
      try {
        return await this.model.stream(withMax(request, permit), signal, this.tag("turn", attempt));
      } catch (error) {
        await this.settle(permit, undefined);
        throw error;
      }
    });
    const used = emptyUsage();
    try {
      return await readStream(stream, used, onText, signal, this.limits);
    } finally {
      addUsage(this.usage, used);
      // A stream that never said its usage (cut off, or a server that does not tell) is charged what it reserved.
      await this.settle(permit, used.totalTokens > 0 ? used : "unknown");
    }
  }

  /** A side question from a tool: no tools, no memory. */
  async ask(prompt: string, signal: AbortSignal): Promise<string> {
    const reply = await this.complete({ messages: [{ role: "user", content: prompt }] }, signal, "side_question");
    return reply.text ?? "";
  }

  private tag(purpose: CallPurpose, attempt: number): CallTag {
    return { purpose, retry: attempt > 0, observer: this.calls };
  }

  private async permit(request: ModelRequest): Promise<CallPermit | undefined> {
    if (!this.budget) return undefined;
    const { budget, model } = this.budget;
    const permit = await budget.reserve({ model, countPromptTokens: () => promptTokens(request, model) });
    if (!permit.allowed) throw new BudgetReached(permit.notice);
    return permit;
  }

  private async settle(permit: CallPermit | undefined, usage: Usage | "unknown" | undefined): Promise<void> {
    if (!permit?.allowed) return;
    const usedAll = usage === "unknown" || (usage !== undefined && usage.completionTokens >= (permit.maxTokens ?? Number.POSITIVE_INFINITY));
    if (permit.notice && permit.maxTokens !== undefined && usedAll) this.budgetNotice = permit.notice;
    await permit.settle(usage);
  }

  private async withRetries<T>(signal: AbortSignal, send: (attempt: number) => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await send(attempt);
      } catch (error) {
        if (hasCode(error, "budget_reached")) throw error;
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

function withMax(request: ModelRequest, permit: CallPermit | undefined): ModelRequest {
  return permit?.allowed && permit.maxTokens !== undefined ? { ...request, maxTokens: permit.maxTokens } : request;
}

import { randomUUID } from "node:crypto";
import type { Agent } from "../agent/agent.js";
import { LlmError } from "../agent/llm-error.js";
import { TurnCancelled } from "../agent/tool-invoker.js";
import { emptyUsage, type AgentResult, type StepEvent } from "../agent/types.js";
import type { Logger } from "../log.js";
import type { Store } from "../store/store.js";
import type { StepRecord } from "../store/turn-store.js";
import type { ConversationRef } from "../store/types.js";
import type { WorkspaceSettings } from "../store/workspace-settings-store.js";
import { TurnAdmission, type AdmissionLimits } from "./admission.js";
import { KeyedQueue } from "./keyed-queue.js";
import type { ToolAccess } from "./tool-access.js";
import type { TurnObserver } from "./turn-observer.js";
import type { ReplySink, TurnReply, TurnRequest } from "./types.js";

export interface TurnRunnerOptions {
  agent: Agent;
  store: Store;
  access: ToolAccess;
  logger: Logger;
  memoryWindow: number;
  /** The largest window a workspace setting may ask for. */
  memoryWindowMax: number;
  memoryTokenBudget: number;
  turnTimeoutMs: number;
  limits: AdmissionLimits;
  observer?: TurnObserver;
  /** This process's name in the turns table (see INSTANCE_ID). */
  instance?: string;
}

/** Why a running turn was cancelled; decides what the user is told. */
type CancelReason = "timeout" | "shutdown";

export const conversationKey = (ref: ConversationRef): string =>
  JSON.stringify([ref.platform, ref.workspaceId, ref.channelId, ref.threadId ?? ""]);

const MESSAGES = {
  timeout: (ms: number) =>
    `Sorry, that took longer than ${ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} seconds`}, so I stopped. Please try again, or ask something simpler.`,
  shutdown: "The bot restarted before I could finish this. Please ask again in a minute.",
  unexpected: "Sorry, something went wrong on my side. The details are in the bot's log.",
};

/**
 * Runs turns for every adapter: one at a time per conversation in arrival order, concurrently
 * across conversations. Loads the memory window, offers only the tools the workspace allows,
 * streams steps to the sink, and stores the exchange and the audit in one transaction.
 */
export class TurnRunner {
  private readonly queue = new KeyedQueue();
  private readonly running = new Map<string, AbortController>();
  private readonly admission: TurnAdmission;
  private accepting = true;

  constructor(private readonly options: TurnRunnerOptions) {
    this.admission = new TurnAdmission(options.limits);
  }

  /** Queues a turn; resolves once its reply was delivered. Never rejects. */
  async submit(request: TurnRequest, sink: ReplySink): Promise<TurnReply> {
    const { store, logger } = this.options;
    if (!this.accepting) return this.refuseForShutdown(sink);
    const settings = store.workspaceSettings.get(request);
    const admission = this.admission.check({
      request,
      settings,
      queueDepth: this.queueDepth(request),
      tokensToday: () => store.usage.tokensToday(request),
    });
    if (!admission.admitted) {
      this.options.observer?.turnRefused?.({ platform: request.platform, outcome: admission.outcome });
      logger.info({ platform: request.platform, workspace: request.workspaceId, outcome: admission.outcome }, "turn refused");
      if (admission.text === undefined) return { turnId: "", status: "ignored", outcome: admission.outcome, text: "" };
      const reply: TurnReply = { turnId: "", status: "refused", outcome: admission.outcome, text: admission.text };
      await deliver(sink, reply, logger);
      return reply;
    }
    return this.queue.run(conversationKey(request), () => this.runTurn(request, sink, settings));
  }

  /** Turns waiting or running in this conversation. */
  queueDepth(ref: ConversationRef): number {
    return this.queue.depth(conversationKey(ref));
  }

  get inFlight(): number {
    return this.running.size;
  }

  /** Conversations with a turn waiting or running; idle ones hold no queue entry. */
  get activeConversations(): number {
    return this.queue.activeKeys;
  }

  /**
   * Stops taking turns, lets running ones finish for up to `graceMs`, then cancels the rest
   * (their users are told the bot restarted). Resolves when every turn has replied.
   */
  async shutdown(graceMs: number): Promise<void> {
    this.accepting = false;
    const deadline = Date.now() + graceMs;
    while (this.running.size > 0 && Date.now() < deadline) await sleep(25);
    for (const controller of this.running.values()) controller.abort("shutdown" satisfies CancelReason);
    // Turns still queued behind them answer "restarted" without touching the store, which closes next.
    while (this.queue.activeKeys > 0) await sleep(10);
  }

  private async refuseForShutdown(sink: ReplySink): Promise<TurnReply> {
    const reply: TurnReply = { turnId: "", status: "failed", outcome: "shutdown", text: MESSAGES.shutdown };
    await deliver(sink, reply, this.options.logger);
    return reply;
  }

  private async runTurn(request: TurnRequest, sink: ReplySink, settings: WorkspaceSettings): Promise<TurnReply> {
    if (!this.accepting) return this.refuseForShutdown(sink);
    const { store, logger: baseLogger } = this.options;
    const turnId = randomUUID();
    const logger = baseLogger.child({ turnId, platform: request.platform, workspace: request.workspaceId });
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort("timeout" satisfies CancelReason), this.options.turnTimeoutMs);
    this.running.set(turnId, controller);

    const steps = new StepRecorder(turnId, store, sink, logger, this.options.observer);
    const conversation = store.memory.conversation(request);
    store.turns.start(turnId, conversation.id, request.userId, this.options.instance);
    const started = performance.now();
    const usage = emptyUsage();
    logger.debug({ user: request.userId, text: request.text }, "turn started");
    let reply: TurnReply;
    try {
      const window = Math.min(settings.memoryWindow ?? this.options.memoryWindow, this.options.memoryWindowMax);
      const history = store.memory.window(conversation, window, this.options.memoryTokenBudget);
      const tools = this.options.access.enabledTools(request);
      const result = await this.options.agent.run({
        history,
        input: request.text,
        instructions: settings.systemPrompt,
        tools,
        request: {
          platform: request.platform,
          workspaceId: request.workspaceId,
          channelId: request.channelId,
          threadId: request.threadId,
          userId: request.userId,
        },
        signal: controller.signal,
        logger,
        onStep: (event) => steps.record(event),
        usage,
      });
      reply = { turnId, status: "answered", outcome: result.outcome, text: result.output };
      store.turns.finish(turnId, endOf(result), () => {
        steps.save();
        store.memory.appendExchange(
          conversation.id,
          turnId,
          { author: request.userName ?? request.userId, text: request.text },
          result.output,
        );
        store.usage.addTokens(request, usage.totalTokens);
      });
      logger.info(
        {
          outcome: result.outcome,
          iterations: result.iterations,
          tools: steps.toolsUsed,
          tokens: usage.totalTokens,
          ms: elapsedMs(started),
        },
        "turn answered",
      );
      logger.debug({ text: result.output }, "turn answer");
    } catch (error) {
      reply = { turnId, status: "failed", ...this.describeFailure(error, controller.signal) };
      store.turns.finish(turnId, {
        status: reply.outcome === "shutdown" ? "interrupted" : "failed",
        outcome: reply.outcome,
        iterations: 0,
        usage,
        error: errorDetail(error),
      }, () => {
        steps.save();
        store.usage.addTokens(request, usage.totalTokens);
      });
      const level = reply.outcome === "error" ? "error" : "warn";
      logger[level](
        { err: error, outcome: reply.outcome, tools: steps.toolsUsed, tokens: usage.totalTokens, ms: elapsedMs(started) },
        "turn failed",
      );
    } finally {
      clearTimeout(timer);
    }
    await steps.flushed();
    await deliver(sink, reply, logger);
    this.running.delete(turnId);
    this.options.observer?.turnFinished?.({
      platform: request.platform,
      status: reply.status,
      outcome: reply.outcome,
      durationMs: elapsedMs(started),
      tokens: usage.totalTokens,
    });
    return reply;
  }

  private describeFailure(error: unknown, signal: AbortSignal): { outcome: string; text: string } {
    if (error instanceof TurnCancelled || signal.aborted) {
      return signal.reason === "shutdown"
        ? { outcome: "shutdown", text: MESSAGES.shutdown }
        : { outcome: "timeout", text: MESSAGES.timeout(this.options.turnTimeoutMs) };
    }
    if (error instanceof LlmError) return { outcome: `llm_${error.failure}`, text: error.userMessage };
    return { outcome: "error", text: MESSAGES.unexpected };
  }
}

/**
 * Keeps each step for the audit, written with the turn's closing transaction, and hands it to
 * the sink in order, without making the agent wait on the platform.
 */
class StepRecorder {
  private chain: Promise<void> = Promise.resolve();
  private readonly steps = new Map<number, StepRecord>();
  /** Started events held back (see ReplySink.stepStartDelayMs), by step. */
  private readonly heldStarts = new Map<number, NodeJS.Timeout>();

  constructor(
    private readonly turnId: string,
    private readonly store: Store,
    private readonly sink: ReplySink,
    private readonly logger: Logger,
    private readonly observer?: TurnObserver,
  ) {}

  record(event: StepEvent): void {
    const step = this.steps.get(event.seq) ?? { seq: event.seq, tool: event.tool, input: undefined, startedAt: Date.now() };
    if (event.type === "tool_started") {
      step.input = event.args;
      this.steps.set(event.seq, step);
    } else {
      step.output = event.type === "tool_finished" ? event.output : undefined;
      step.error = event.type === "tool_failed" ? event.error : undefined;
      step.durationMs = event.durationMs;
      this.observer?.toolFinished?.({ tool: event.tool, ok: event.type === "tool_finished", durationMs: event.durationMs });
    }
    this.show(event);
  }

  private show(event: StepEvent): void {
    const delay = this.sink.stepStartDelayMs;
    if (event.type === "tool_started" && delay !== undefined && delay > 0) {
      this.heldStarts.set(
        event.seq,
        setTimeout(() => {
          this.heldStarts.delete(event.seq);
          this.forward(event);
        }, delay),
      );
      return;
    }
    if (event.type !== "tool_started") {
      clearTimeout(this.heldStarts.get(event.seq));
      this.heldStarts.delete(event.seq);
    }
    this.forward(event);
  }

  private forward(event: StepEvent): void {
    this.chain = this.chain.then(async () => {
      try {
        await this.sink.step(event);
      } catch (error) {
        this.logger.warn({ err: error, step: event.seq }, "could not show a tool step");
      }
    });
  }

  /**
   * Writes the steps; call inside the transaction that closes the turn. Every step has ended by
   * then: the agent returns or throws only after its tool calls settled, and a cancelled tool reports nothing.
   */
  save(): void {
    this.store.turns.saveSteps(this.turnId, this.steps.values());
  }

  /** Resolves once the sink has every step; a start still held back by then is dropped (its step never ended). */
  flushed(): Promise<void> {
    for (const timer of this.heldStarts.values()) clearTimeout(timer);
    this.heldStarts.clear();
    return this.chain;
  }

  get toolsUsed(): string[] {
    return [...this.steps.values()].map((step) => step.tool);
  }
}

async function deliver(sink: ReplySink, reply: TurnReply, logger: Logger): Promise<void> {
  try {
    await sink.reply(reply);
  } catch (error) {
    logger.error({ err: error, turnId: reply.turnId }, "could not deliver the reply");
  }
}

function endOf(result: AgentResult) {
  return { status: "answered" as const, outcome: result.outcome, iterations: result.iterations, usage: result.usage };
}

function errorDetail(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? ` (cause: ${error.cause.message})` : "";
    return `${error.name}: ${error.message}${cause}`;
  }
  return String(error);
}

const elapsedMs = (start: number) => Math.round(performance.now() - start);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

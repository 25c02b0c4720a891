import { randomUUID } from "node:crypto";
import type { Agent } from "../agent/agent.js";
import { LlmError } from "../agent/llm-error.js";
import { TurnCancelled } from "../agent/tool-invoker.js";
import { emptyUsage, type AgentResult, type Usage } from "../agent/types.js";
import type { Logger } from "../log.js";
import type { QueueTicket, Store } from "../store/store.js";
import { conversationKey, type Conversation, type ConversationRef } from "../store/types.js";
import type { WorkspaceSettings } from "../store/workspace-settings.js";
import { TurnAdmission, type AdmissionLimits } from "./admission.js";
import type { Location } from "./incoming.js";
import { KeyedQueue } from "./keyed-queue.js";
import { StepRecorder } from "./step-recorder.js";
import type { ToolAccess } from "./tool-access.js";
import type { TurnObserver } from "./turn-observer.js";
import type { TurnReply, TurnRequest, TurnView } from "./types.js";

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
  /** This process run's id in the store (see InstanceLease): its turns and places in line carry it. */
  instance: string;
}

/** The end of the shutdown grace kept for cancelled turns to tell their users. */
const SAY_RESTARTED_MS = 1_000;
/**
 * A place first in line for longer than a turn may take plus this was lost by its process (it
 * holds it while the turn runs and its answer is posted, with the platform's retries).
 */
const POSTING_MARGIN_MS = 60_000;
const RATE_WINDOW_MS = 60_000;

/** Why a running turn was cancelled; decides what the user is told. */
type CancelReason = "timeout" | "shutdown";

export const RUNNER_TEXT = {
  timeout: (ms: number) =>
    `Sorry, that took longer than ${ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} seconds`}, so I stopped. Please try again, or ask something simpler.`,
  shutdown: "The bot restarted before I could finish this. Please ask again in a minute.",
  unexpected: "Sorry, something went wrong on my side. The details are in the bot's log.",
};

/** A turn that may run: its settings and its place in the conversation's line. */
interface AdmittedTurn {
  settings: WorkspaceSettings;
  ticket: QueueTicket;
}

/**
 * Runs turns for every platform: one at a time per conversation in arrival order (also across
 * processes sharing the database, through the store's turn queue), concurrently across
 * conversations. Loads the memory window, offers only the tools the workspace allows, shows steps
 * through the turn's view, and stores the exchange and the audit as one unit of work.
 */
export class TurnRunner {
  /** Admission per conversation in call order, so places in line are taken in arrival order. */
  private readonly arrivals = new KeyedQueue();
  private readonly queue = new KeyedQueue();
  private readonly running = new Map<string, AbortController>();
  /** Turns waiting for another process's turn in their conversation. */
  private readonly waiting = new Set<AbortController>();
  private readonly admission: TurnAdmission;
  private accepting = true;

  constructor(private readonly options: TurnRunnerOptions) {
    this.admission = new TurnAdmission(options.limits);
  }

  /**
   * Admits a turn (in code, before any model call) and queues it behind the conversation's earlier
   * ones; resolves once its reply was shown. Never rejects: whatever fails (the model, a tool, the
   * store, the platform) ends as a short message to the user and a line in the log.
   */
  async submit(request: TurnRequest, view: TurnView): Promise<TurnReply> {
    return (await this.accept(request, view)).reply;
  }

  /**
   * Admits a turn and takes its place in line; resolves once it has one (or was refused), with the
   * reply to come. Calls for one conversation are admitted in the order they were made. Never rejects.
   */
  accept(request: TurnRequest, view: TurnView): Promise<{ reply: Promise<TurnReply> }> {
    const key = conversationKey(request);
    return this.arrivals.run(key, async () => {
      const admitted = await this.admit(request, view);
      if ("reply" in admitted) return { reply: Promise.resolve(admitted.reply) };
      return { reply: this.queue.run(key, () => this.runQueued(request, view, admitted)) };
    });
  }

  /** The turn's settings and place, or the reply already shown when it may not run. */
  private async admit(request: TurnRequest, view: TurnView): Promise<AdmittedTurn | { reply: TurnReply }> {
    if (!this.accepting) return { reply: await this.refuseForShutdown(view) };
    const { store, logger, observer, instance, limits } = this.options;
    try {
      const settings = await store.workspaceSettings.get(request);
      const admission = await this.admission.check({
        request,
        settings,
        tokensToday: () => store.usage.tokensToday(request),
        ignoredAnywhere: () => store.workspaceSettings.isIgnoredAnywhere(request.platform, request.userId),
        takePlace: async () => {
          const entered = await store.queue.enter({
            conversation: request,
            instance,
            maxDepth: limits.maxQueuedTurns,
            rate: request.operator ? undefined : { key: JSON.stringify([request.platform, request.userId]), limit: limits.ratePerUserPerMinute, windowMs: RATE_WINDOW_MS },
          });
          return "ticket" in entered ? { place: entered.ticket } : entered;
        },
      });
      if (!admission.admitted) {
        observer?.turnRefused?.({ platform: request.platform, outcome: admission.outcome });
        logger.info({ platform: request.platform, workspace: request.workspaceId, outcome: admission.outcome }, "turn refused");
        const reply: TurnReply =
          admission.text === undefined
            ? { turnId: "", status: "ignored", outcome: admission.outcome, text: "" }
            : { turnId: "", status: "refused", outcome: admission.outcome, text: admission.text };
        await finish(view, reply, logger);
        return { reply };
      }
      try {
        view.begin?.();
      } catch (error) {
        logger.warn({ err: error }, "could not show that the bot is working");
      }
      return { settings, ticket: admission.place };
    } catch (error) {
      logger.error({ err: error, platform: request.platform, workspace: request.workspaceId }, "could not admit a turn");
      const reply: TurnReply = { turnId: "", status: "failed", outcome: "error", text: RUNNER_TEXT.unexpected };
      await finish(view, reply, logger);
      return { reply };
    }
  }

  /** Entries held in memory by admission (for the leak checks). */
  get trackedEntries(): number {
    return this.admission.trackedEntries;
  }

  get inFlight(): number {
    return this.running.size;
  }

  /** Conversations with a turn waiting or running; idle ones hold no queue entry. */
  get activeConversations(): number {
    return this.queue.activeKeys;
  }

  get isAccepting(): boolean {
    return this.accepting;
  }

  /** Resolves once no turn is waiting or running. */
  async idle(): Promise<void> {
    while (this.queue.activeKeys > 0 || this.arrivals.activeKeys > 0) await sleep(10);
  }

  /**
   * Stops taking turns, lets running ones finish, then cancels the rest (their users are told the
   * bot restarted). Turns waiting for another process's turn are cancelled at once. Resolves
   * within `graceMs` (at least half a second, for the cancelled turns to say so) whatever is still
   * running: the last second of the grace is kept for those messages.
   */
  async shutdown(graceMs: number): Promise<void> {
    this.accepting = false;
    for (const controller of this.waiting) controller.abort("shutdown" satisfies CancelReason);
    const start = Date.now();
    const abortAt = start + Math.max(0, graceMs - SAY_RESTARTED_MS);
    const deadline = Math.max(start + graceMs, abortAt + SAY_RESTARTED_MS / 2);
    while (this.running.size > 0 && Date.now() < abortAt) await sleep(25);
    for (const controller of this.running.values()) controller.abort("shutdown" satisfies CancelReason);
    // Turns still queued behind them answer "restarted" without touching the store, which closes next.
    while ((this.queue.activeKeys > 0 || this.arrivals.activeKeys > 0) && Date.now() < deadline) await sleep(10);
    if (this.queue.activeKeys > 0) {
      this.options.logger.warn({ turns: this.running.size, conversations: this.queue.activeKeys }, "shutdown grace over; leaving turns that did not stop");
    }
  }

  private async refuseForShutdown(view: TurnView): Promise<TurnReply> {
    const reply: TurnReply = { turnId: "", status: "failed", outcome: "shutdown", text: RUNNER_TEXT.shutdown };
    await finish(view, reply, this.options.logger);
    return reply;
  }

  /**
   * First in this process's line: waits for earlier turns of other processes, runs, and gives the
   * place up once the reply was shown, so the next turn's answer comes after this one's.
   */
  private async runQueued(request: TurnRequest, view: TurnView, admitted: AdmittedTurn): Promise<TurnReply> {
    try {
      if (!this.accepting) return await this.refuseForShutdown(view);
      const controller = new AbortController();
      if (!(await this.waitForTurn(admitted.ticket, controller))) return await this.refuseForShutdown(view);
      return await this.runTurn(request, view, admitted.settings, controller);
    } finally {
      await this.options.store.queue.leave(admitted.ticket).catch((error: unknown) => {
        this.options.logger.warn({ err: error }, "could not give up a turn's place in line (it expires on its own)");
      });
    }
  }

  /** False when shutdown cancelled the wait. A store failure while waiting lets the turn run rather than hang. */
  private async waitForTurn(ticket: QueueTicket, controller: AbortController): Promise<boolean> {
    this.waiting.add(controller);
    try {
      await this.options.store.queue.waitForTurn(ticket, {
        signal: controller.signal,
        staleAfterMs: this.options.turnTimeoutMs + POSTING_MARGIN_MS,
        onBlocked: () => this.options.logger.debug({ place: ticket.id }, "waiting for an earlier turn of this conversation in another process"),
      });
      return true;
    } catch (error) {
      if (controller.signal.aborted) return false;
      this.options.logger.warn({ err: error }, "could not check the conversation's line; running the turn anyway");
      return true;
    } finally {
      this.waiting.delete(controller);
    }
  }

  private async runTurn(request: TurnRequest, view: TurnView, settings: WorkspaceSettings, controller: AbortController): Promise<TurnReply> {
    const { store, logger: baseLogger, instance } = this.options;
    const turnId = randomUUID();
    const logger = baseLogger.child({ turnId, platform: request.platform, workspace: request.workspaceId });
    const timer = setTimeout(() => controller.abort("timeout" satisfies CancelReason), this.options.turnTimeoutMs);
    this.running.set(turnId, controller);
    const steps = new StepRecorder(view, logger, this.options.observer);
    const started = performance.now();
    const usage = emptyUsage();
    let opened = false;
    let reply: TurnReply;
    try {
      const conversation = await store.turns.start({ id: turnId, conversation: request, userId: request.userId, instance });
      opened = true;
      logger.debug({ user: request.userId, text: request.text }, "turn started");
      const result = await this.ask(request, settings, conversation, controller.signal, steps, usage, logger);
      const thread = await this.threadToSeed(view, request);
      reply = { turnId, status: "answered", outcome: result.outcome, text: result.output };
      await store.turns.finish({
        turnId,
        end: { status: "answered", outcome: result.outcome, iterations: result.iterations, usage: result.usage },
        steps: steps.records(),
        workspace: request,
        exchange: { conversationId: conversation.id, question: { author: request.userName ?? request.userId, text: request.text }, answer: result.output, alsoIn: thread },
      });
      logger.info(
        { outcome: result.outcome, iterations: result.iterations, tools: steps.toolsUsed, tokens: usage.totalTokens, ms: elapsedMs(started) },
        "turn answered",
      );
      logger.debug({ text: result.output }, "turn answer");
    } catch (error) {
      reply = { turnId, status: "failed", ...this.describeFailure(error, controller.signal) };
      if (opened) await this.recordFailure(turnId, reply, error, steps, usage, request, logger);
      const level = reply.outcome === "error" ? "error" : "warn";
      logger[level]({ err: error, outcome: reply.outcome, tools: steps.toolsUsed, tokens: usage.totalTokens, ms: elapsedMs(started) }, "turn failed");
    } finally {
      clearTimeout(timer);
      this.running.delete(turnId);
    }
    await finish(view, reply, logger);
    this.options.observer?.turnFinished?.({
      platform: request.platform,
      status: reply.status,
      outcome: reply.outcome,
      durationMs: elapsedMs(started),
      tokens: usage.totalTokens,
    });
    return reply;
  }

  private async ask(
    request: TurnRequest,
    settings: WorkspaceSettings,
    conversation: Conversation,
    signal: AbortSignal,
    steps: StepRecorder,
    usage: Usage,
    logger: Logger,
  ): Promise<AgentResult> {
    const { store, access, agent, memoryWindow, memoryWindowMax, memoryTokenBudget } = this.options;
    const window = Math.min(settings.memoryWindow ?? memoryWindow, memoryWindowMax);
    const [history, tools] = await Promise.all([store.conversations.window(conversation, window, memoryTokenBudget), access.enabledTools(request)]);
    return agent.run({
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
      signal,
      logger,
      onStep: (event) => steps.record(event),
      usage,
    });
  }

  /** A thread opened on the question is a conversation of its own that starts with this exchange. */
  private async threadToSeed(view: TurnView, request: TurnRequest): Promise<ConversationRef | undefined> {
    let thread: Location | undefined;
    try {
      thread = await view.openedThread?.();
    } catch {
      return undefined;
    }
    if (!thread) return undefined;
    const ref: ConversationRef = { platform: request.platform, workspaceId: request.workspaceId, channelId: thread.channelId, threadId: thread.threadId };
    return conversationKey(ref) === conversationKey(request) ? undefined : ref;
  }

  /** The failed turn's row, steps and tokens; a store that fails here too is only logged (the user still hears). */
  private async recordFailure(turnId: string, reply: TurnReply, error: unknown, steps: StepRecorder, usage: Usage, request: TurnRequest, logger: Logger): Promise<void> {
    try {
      await this.options.store.turns.finish({
        turnId,
        end: { status: reply.outcome === "shutdown" ? "interrupted" : "failed", outcome: reply.outcome, iterations: 0, usage, error: errorDetail(error) },
        steps: steps.records(),
        workspace: request,
      });
    } catch (storeError) {
      logger.error({ err: storeError }, "could not record the failed turn");
    }
  }

  private describeFailure(error: unknown, signal: AbortSignal): { outcome: string; text: string } {
    if (error instanceof TurnCancelled || signal.aborted) {
      return signal.reason === "shutdown"
        ? { outcome: "shutdown", text: RUNNER_TEXT.shutdown }
        : { outcome: "timeout", text: RUNNER_TEXT.timeout(this.options.turnTimeoutMs) };
    }
    if (error instanceof LlmError) return { outcome: `llm_${error.failure}`, text: error.userMessage };
    return { outcome: "error", text: RUNNER_TEXT.unexpected };
  }
}

async function finish(view: TurnView, reply: TurnReply, logger: Logger): Promise<void> {
  try {
    await view.finish(reply);
  } catch (error) {
    logger.error({ err: error, turnId: reply.turnId }, "could not deliver the reply");
  }
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

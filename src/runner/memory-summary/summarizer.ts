import type { CallBudget, CallPermit } from "../../agent/call-budget.js";
import type { ModelRequest } from "../../agent/model.js";
import type { ModelCatalog } from "../../agent/model-catalog.js";
import { promptTokens } from "../../agent/prompt-tokens.js";
import type { Logger } from "../../log.js";
import { deadline } from "../../signals.js";
import type { Store } from "../../store/store.js";
import { budgetTimeZone } from "../budgets/budget-windows.js";
import type { BudgetSubject } from "../budgets/budgets.js";
import type { IndexedIdentifier, SummaryState, SummaryUsage } from "../../store/summary-store.js";
import type { Conversation, ConversationRef } from "../../store/types.js";
import type { ForgetHook } from "../history-recorder.js";
import { findIdentifiers } from "./identifiers.js";
import { boundedSummary, exchangesOf, mergeIndex, promptBlock, sourceOf, SUMMARY_NOTE, summaryRequest, type DroppedExchange } from "./summary-text.js";

export interface SummarizerOptions {
  store: Pick<Store, "summaries" | "usage" | "workspaceSettings">;
  models: ModelCatalog;
  logger: Logger;
  /** MEMORY_SUMMARY_MAX_TOKENS: the summary's bound, and the fallback's. */
  maxTokens: number;
  /**
   * MEMORY_SUMMARY_BATCH: exchanges that must have left the window before a summary call is made
   * (one call per exchange would cost a model call per turn once the window is full); until then
   * the prompt carries their questions verbatim. Default 1.
   */
  batchExchanges?: number;
  /** MEMORY_SUMMARY_MODEL; unset, the conversation's model. */
  model?: string;
  /** The spending budgets (issue 25): a summary call is charged to its workspace and channel like a turn's, and not made when they are spent. */
  budgets?: { forCall(subject: BudgetSubject): CallBudget };
  /** The longest one summary call may take (it then counts as failed). */
  timeoutMs?: number;
}

/** A conversation as its summary needs it, after a turn there. */
export interface SummaryTurn {
  where: ConversationRef;
  conversation: Conversation;
  /** The channel usage reports group the call under (a thread's channel). */
  channelId: string;
  /** Exchanges the window holds. */
  window: number;
  /** The conversation's model. */
  model: string;
  /** Posts a short message in the conversation (the first summary's note). */
  note?: (text: string) => Promise<void>;
}

/** Waits after a failed summary, by failures in a row: 1, 5, then 15 minutes. */
const COOLDOWNS_MS = [60_000, 5 * 60_000, 15 * 60_000] as const;
/** Exchanges summarized per model call (their messages); more wait for the next round. */
const BATCH_MESSAGES = 40;
/** Rounds one update runs at most (a long backlog after a restart, or a window made smaller). */
const MAX_ROUNDS = 5;
/** Exchanges whose questions the fallback reads (it keeps the newest that fit its bound). */
const FALLBACK_MESSAGES = 100;
/** Identifiers the index keeps per conversation, the newest. */
const INDEX_CAP = 200;
const DEFAULT_TIMEOUT_MS = 60_000;
/** Conversations whose last turn is remembered, to rebuild their summary at once after a forgetting (the newest kept). */
const RECENT_TURNS = 1_000;

type GrantedPermit = Extract<CallPermit, { allowed: true }>;

/**
 * Keeps each conversation's summary of what left its memory window (issue 24 §1). The update
 * runs after a turn's answer was shown, in the background: a turn never waits for it. Across
 * processes one update per conversation runs at a time (a lease on its versioned row), and a
 * write that read an older version changes nothing. A failed call loses nothing: the exchanges
 * stay stored and to summarize, retried after a growing cooldown, and meanwhile the prompt gets
 * their questions verbatim instead.
 */
export class ConversationSummarizer {
  private readonly running = new Set<Promise<void>>();
  /**
   * Conversations with an update running in this process (a second is not started beside it),
   * with the turn to run one more round for once it ends, if another came meanwhile.
   */
  private readonly busy = new Map<number, SummaryTurn | undefined>();
  private closing = false;
  private readonly retries = new Map<number, NodeJS.Timeout>();
  private readonly stopping = new AbortController();
  /**
   * Exchanges waiting for a summary as a turn's prompt saw them (by the turn's conversation
   * object, which lives as long as the turn): afterTurn needs no read when even one more cannot make a batch.
   */
  private readonly waitingSeen = new WeakMap<Conversation, number>();

  /** The last turn of each conversation lately summarized here, oldest first (what a rebuild needs: its window and model). */
  private readonly recent = new Map<number, SummaryTurn>();

  /** Registered with the history recorder: after a deletion or a forget-me, rebuilds the summaries the store emptied. */
  readonly forgetHook: ForgetHook = { forgotten: async (what) => this.rebuild(what.staleSummaries) };

  /** Exchanges summarized together at least (a full read of BATCH_MESSAGES rows is a batch whatever the setting). */
  private readonly batch: number;

  constructor(private readonly options: SummarizerOptions) {
    this.batch = Math.min(options.batchExchanges ?? 1, BATCH_MESSAGES / 2);
  }

  /** The part of the prompt between the system prompt and the window; undefined when there is none (or it cannot be read). */
  async promptFor(turn: Pick<SummaryTurn, "conversation" | "window">): Promise<string | undefined> {
    const { store, maxTokens, logger } = this.options;
    try {
      const state = await store.summaries.get(turn.conversation.id);
      const waiting = exchangesOf(await store.summaries.dropped(turn.conversation, state.coveredTo, turn.window * 2, FALLBACK_MESSAGES * 2));
      this.waitingSeen.set(turn.conversation, waiting.length);
      return promptBlock(state, waiting, maxTokens);
    } catch (error) {
      logger.warn({ err: error, conversation: turn.conversation.id }, "could not read the conversation's summary; answering from the window alone");
      return undefined;
    }
  }

  /**
   * Starts the summary's update for a turn whose answer was shown; returns at once. While one runs
   * for the conversation, another turn's call asks for one more round after it (what left the window meanwhile).
   */
  afterTurn(turn: SummaryTurn): void {
    const id = turn.conversation.id;
    if (this.closing) return;
    this.remember(turn);
    // The turn's own exchange pushes one more out of the window at most.
    const seen = this.waitingSeen.get(turn.conversation);
    this.waitingSeen.delete(turn.conversation);
    if (seen !== undefined && seen + 1 < this.batch) return;
    if (this.busy.has(id)) {
      this.busy.set(id, turn);
      return;
    }
    this.busy.set(id, undefined);
    const update = this.update(turn)
      .catch((error: unknown) => this.options.logger.warn({ err: error, conversation: id }, "could not update the conversation's summary"))
      .finally(() => {
        const again = this.busy.get(id);
        this.busy.delete(id);
        this.running.delete(update);
        if (again) this.afterTurn(again);
      });
    this.running.add(update);
  }

  /**
   * Rebuilds emptied summaries, in the background, from the exchanges still stored: the store
   * emptied them in the forgetting's own transaction, so until the rebuild the prompt gets the
   * fallback and never the removed text. A conversation without a recent turn in this process
   * (another process's, or before a restart) is rebuilt after its next turn, like any update.
   */
  rebuild(conversationIds: readonly number[]): void {
    for (const id of conversationIds) {
      const turn = this.recent.get(id);
      if (turn) this.afterTurn(turn);
    }
  }

  private remember(turn: SummaryTurn): void {
    const id = turn.conversation.id;
    this.recent.delete(id);
    // Without its note: the conversation was told already, and the turn's view is not kept alive.
    this.recent.set(id, { ...turn, note: undefined });
    if (this.recent.size > RECENT_TURNS) this.recent.delete(this.recent.keys().next().value!);
  }

  /** Resolves once no update runs (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  /**
   * Stops: no new update; the running ones get `graceMs` to finish (a piped terminal session's
   * last summary), then their calls are aborted (their exchanges stay to summarize).
   */
  async stop(graceMs = 5_000): Promise<void> {
    this.closing = true;
    for (const timer of this.retries.values()) clearTimeout(timer);
    this.retries.clear();
    const waited = (ms: number) => {
      let timer: NodeJS.Timeout | undefined;
      return Promise.race([this.idle(), new Promise((resolve) => (timer = setTimeout(resolve, ms)))]).finally(() => clearTimeout(timer));
    };
    await waited(graceMs);
    this.stopping.abort();
    await waited(1_000);
  }

  private async update(turn: SummaryTurn): Promise<void> {
    for (let round = 0; round < MAX_ROUNDS && !this.closing; round++) {
      if (!(await this.round(turn))) return;
    }
  }

  /** One model call over the oldest exchanges waiting; true when more may wait. */
  private async round(turn: SummaryTurn): Promise<boolean> {
    const { store, logger } = this.options;
    const id = turn.conversation.id;
    const state = await store.summaries.get(id);
    const now = Date.now();
    if (state.retryAt > now) {
      this.retryLater(turn, state.retryAt - now);
      return false;
    }
    const rows = await store.summaries.dropped(turn.conversation, state.coveredTo, turn.window * 2, BATCH_MESSAGES);
    const exchanges = exchangesOf(rows);
    if (exchanges.length === 0) return false;
    // Fewer than a batch wait for more.
    if (exchanges.length < this.batch && rows.length < BATCH_MESSAGES) return false;
    // The spending budgets (issue 25), DAILY_TOKEN_BUDGET among them: a call they would not allow is not made, and the exchanges wait.
    const modelName = this.options.model ?? turn.model;
    const request = summaryRequest(state.summary, exchanges, this.options.maxTokens);
    const permit = await this.reserve(turn, modelName, () => promptTokens(request, modelName));
    if (!permit.allowed) {
      logger.info({ conversation: id, budget: permit.notice }, "no summary: a spending budget is reached; the exchanges wait");
      return false;
    }
    const leaseMs = (this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS) + 30_000;
    if (!(await store.summaries.claim(id, state.version, now, leaseMs))) {
      logger.debug({ conversation: id }, "another process is updating this summary");
      await permit.settle(undefined);
      return false;
    }
    const { text: written, usage } = await this.summarize(turn, state, request, permit);
    if (written === undefined) {
      const delay = COOLDOWNS_MS[Math.min(state.failures, COOLDOWNS_MS.length - 1)]!;
      await store.summaries.failed(id, state.version, Date.now() + delay, usage);
      this.retryLater(turn, delay);
      return false;
    }
    const last = exchanges.at(-1)!;
    const saved = await store.summaries.save(
      id,
      state.version,
      {
        summary: written,
        identifiers: mergeIndex(state.identifiers, identifiersOf(turn.where, exchanges), INDEX_CAP),
        coveredTo: last.answer.id,
        coversFrom: exchanges[0]!.question.createdAt,
        coversUntil: last.answer.createdAt,
        updatedAt: Date.now(),
      },
      usage,
    );
    if (!saved) {
      // Cleared (memory clear) or written by another process meanwhile: this one is dropped, nothing is lost.
      logger.info({ conversation: id }, "the summary changed meanwhile; this update was dropped");
      return false;
    }
    logger.info({ conversation: id, exchanges: exchanges.length, chars: written.length }, "conversation summary updated");
    if (!state.noted && (await store.summaries.markNoted(id))) await this.tell(turn);
    return rows.length >= BATCH_MESSAGES;
  }

  /** The model's summary, or undefined when the call failed (logged), and the call's usage (recorded with the outcome). */
  private async summarize(
    turn: SummaryTurn,
    state: SummaryState,
    request: ModelRequest,
    permit: GrantedPermit,
  ): Promise<{ text: string | undefined; usage: SummaryUsage }> {
    const { models, logger } = this.options;
    const modelName = this.options.model ?? turn.model;
    const started = performance.now();
    // Released when the call settles: AbortSignal.timeout would keep its timer and signal for the
    // whole minute after each summary (4,000 of them, 5 MB, at 330 turns a second).
    const limit = deadline(this.stopping.signal, this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    let usage = { promptTokens: 0, completionTokens: 0 };
    let text: string | undefined;
    try {
      const reply = await models
        .model(modelName)
        .complete(
          permit.maxTokens === undefined ? request : { ...request, maxTokens: Math.min(request.maxTokens ?? permit.maxTokens, permit.maxTokens) },
          limit.signal,
          { purpose: "summary", retry: false },
        )
        .catch(async (error: unknown) => {
          await permit.settle(undefined);
          throw error;
        });
      await permit.settle(reply.usage ?? "unknown");
      if (reply.usage) usage = reply.usage;
      const summary = boundedSummary(reply.text ?? "", this.options.maxTokens);
      if (summary) text = summary;
      else logger.warn({ conversation: turn.conversation.id }, "the summary model answered nothing; the exchanges wait for the next try");
    } catch (error) {
      logger.warn(
        { err: error, conversation: turn.conversation.id, failures: state.failures + 1 },
        "the summary call failed; the exchanges wait for the next try",
      );
    } finally {
      limit.release();
    }
    return {
      text,
      usage: {
        conversationId: turn.conversation.id,
        workspace: turn.where,
        channelId: turn.channelId,
        model: modelName,
        ok: text !== undefined,
        promptTokens: usage.promptTokens,
        completionTokens: usage.completionTokens,
        durationMs: Math.round(performance.now() - started),
      },
    };
  }

  /** The call's permit from the spending budgets (the workspace's and the channel's; a summary is nobody's), or a free pass without them. */
  private async reserve(turn: SummaryTurn, model: string, countPromptTokens: () => number): Promise<CallPermit> {
    const { budgets, store } = this.options;
    if (!budgets) return { allowed: true, settle: async () => undefined };
    const timeZone = budgetTimeZone(await store.workspaceSettings.get(turn.where));
    return budgets
      .forCall({ platform: turn.where.platform, workspaceId: turn.where.workspaceId, channelId: turn.channelId, userId: "", timeZone })
      .reserve({ model, countPromptTokens });
  }

  private retryLater(turn: SummaryTurn, delayMs: number): void {
    const id = turn.conversation.id;
    if (this.retries.has(id) || this.closing) return;
    const timer = setTimeout(() => {
      this.retries.delete(id);
      this.afterTurn(turn);
    }, delayMs);
    timer.unref();
    this.retries.set(id, timer);
  }

  private async tell(turn: SummaryTurn): Promise<void> {
    try {
      await turn.note?.(SUMMARY_NOTE);
    } catch (error) {
      this.options.logger.warn({ err: error, conversation: turn.conversation.id }, "could not post the summary note");
    }
  }
}

/** The identifiers of the exchanges, found by code: the question's from its author, the answer's from the bot, each with its question's message. */
function identifiersOf(where: ConversationRef, exchanges: readonly DroppedExchange[]): IndexedIdentifier[] {
  return exchanges.flatMap(({ question, answer }) => {
    const source = sourceOf(where, question);
    return [
      ...findIdentifiers(question.text).map((found) => ({ ...found, by: question.author ?? "someone", source, at: question.createdAt })),
      ...findIdentifiers(answer.text).map((found) => ({ ...found, by: "bot", source, at: answer.createdAt })),
    ];
  });
}

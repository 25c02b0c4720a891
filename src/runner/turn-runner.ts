import { newTurnId } from "../store/turn-ids.js";
import type { Agent } from "../agent/agent.js";
import { emptyUsage, type AgentResult, type ApprovalRequest, type ApprovalVerdict, type Usage } from "../agent/types.js";
import { withStoredFilesNamed } from "../attachments/describe.js";
import type { ReadQuestion, SharedContentReader } from "../attachments/shared-content-reader.js";
import { lazyChild, type Logger } from "../log.js";
import type { ChannelRef } from "../store/channel-settings-store.js";
import type { ClaimOutcome, PlaceChecks, PlaceClaim, QueueAdmission, Store } from "../store/store.js";
import type { NoticeTarget, TurnClosing, TurnStart } from "../store/turn-records.js";
import { conversationKey, type Conversation, type ConversationRef } from "../store/types.js";
import type { WorkspaceSettings } from "../store/workspace-settings.js";
import { ignoredInSharedWorkspaces, TurnAdmission, type AdmissionLimits } from "./admission.js";
import type { ApprovalDesk } from "./approvals/approval-desk.js";
import type { Budgets } from "./budgets/budgets.js";
import { budgetTimeZone } from "./budgets/budget-windows.js";
import { settingsChannelOf, type ChannelPolicies, type TurnPolicy } from "./channel-policy.js";
import type { Location } from "../contract/inbound.js";
import { ConversationLine, type LinePlace } from "./conversation-line.js";
import { arrivalOrder } from "./message-order.js";
import type { HistoryRecorder } from "./history-recorder.js";
import { StepRecorder } from "./step-recorder.js";
import { retryStoreWrite } from "./store-retry.js";
import { TurnDeadline } from "./turn-deadline.js";
import type { ConversationSummarizer, SummaryTurn } from "./memory-summary/summarizer.js";
import type { TurnObserver } from "./turn-observer.js";
import { ModelCallLog, type TracedTurn, type TurnTrace, type TurnTracer } from "./turn-trace.js";
import type { TurnRequest } from "./types.js";
import type { TurnReply, TurnView } from "../contract/turn-view.js";
import { answerDone, answerTextFor, describeFailure, errorDetail, finish, RUNNER_TEXT, type CancelReason } from "./turn-replies.js";

export interface TurnRunnerOptions {
  agent: Agent;
  /** Reads the files and messages a question shares, in the turn. */
  reader: SharedContentReader;
  store: Store;
  /** Per-channel policy over the workspace's settings: tools, memory window, model, instructions. */
  policies: ChannelPolicies;
  /** Where tool calls that need approval wait for a person. */
  approvals: ApprovalDesk;
  logger: Logger;
  memoryTokenBudget: number;
  turnTimeoutMs: number;
  /** STREAM_ANSWERS: views that show the answer while it arrives get its text as the model writes it. */
  streamAnswers?: boolean;
  limits: AdmissionLimits;
  /** Checked before every model call of a turn (issue 25); none: no budgets. */
  budgets?: Budgets;
  observer?: TurnObserver;
  /** Indexes each answered exchange for search_history, after its answer is shown. */
  history?: HistoryRecorder;
  /** This process run's id in the store (see InstanceLease): its turns and places in line carry it. */
  instance: string;
  /**
   * The longest a live turn holds its place in line: its time limit, the approvals it may wait for
   * (which pause it) and the posting of its answer. A place first in line for longer was lost.
   */
  placeHeldAtMostMs: number;
  /** Keeps each conversation's summary of what left its window (issue 24); none: no summaries. */
  summaries?: ConversationSummarizer;
  /** Exports each turn as a trace (OTEL_EXPORTER_OTLP_ENDPOINT); none: no traces. */
  tracer?: TurnTracer;
}

/** The end of the shutdown grace kept for cancelled turns to tell their users. */
const SAY_RESTARTED_MS = 1_000;

/**
 * How long a turn's closing write is tried again while the store fails (an outage, a busy or full
 * SQLite file) before the turn gives up: its user then hears that something went wrong, and nothing
 * of it is in memory. Its place in line is held meanwhile, so the conversation's next turn, which
 * reads the memory window, starts after the exchange is in it.
 */
const CLOSE_RETRY_MS = 30_000;

/** Per user per minute: RATE_LIMIT_PER_USER's window. */
const RATE_WINDOW_MS = 60_000;

/** A turn as the approval of one of its calls needs it. */
interface TurnContext {
  turnId: string;
  request: TurnRequest;
  channel: ChannelRef;
  view: TurnView;
  controller: AbortController;
  deadline: TurnDeadline;
}

/** A turn that may run: its settings and its place in the conversation's line. */
interface AdmittedTurn extends LinePlace {
  settings: WorkspaceSettings;
  /** Recorded as running with its admission (PlaceChecks.opening): its id, policy and conversation. */
  opened?: OpenedTurn;
}

/** A turn the store recorded as running: what runTurn would otherwise look up and write itself. */
interface OpenedTurn {
  turnId: string;
  policy: TurnPolicy;
  conversation: Conversation;
}

/**
 * Runs turns for every platform: one at a time per conversation in the platform's order of their
 * messages (also across processes sharing the database, through the store's turn queue), concurrently across
 * conversations. Loads the memory window, offers only the tools the channel allows, shows steps
 * through the turn's view, and stores the exchange and the audit as one unit of work.
 */
export class TurnRunner {
  private readonly line: ConversationLine;
  /** Running turns by id: their controller and conversation (conversationKey). */
  private readonly running = new Map<string, { controller: AbortController; conversation: string }>();
  private startedCount = 0;
  /** Turns waiting for a person's approval, with how many of their calls wait. */
  private readonly awaitingPeople = new Map<AbortController, number>();
  private readonly admission: TurnAdmission;
  private accepting = true;
  /** Aborts when shutdown cancels the running turns: closing writes stop retrying then. */
  private readonly stopping = new AbortController();

  constructor(private readonly options: TurnRunnerOptions) {
    this.admission = new TurnAdmission(options.limits);
    this.line = new ConversationLine({
      queue: options.store.queue,
      logger: options.logger,
      placeHeldAtMostMs: options.placeHeldAtMostMs,
      instance: options.instance,
    });
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
   * Admits a turn and lines it up; resolves once it was admitted (or refused), with the reply to
   * come. `place` is the place its message took when it was claimed (MessageIntake); without one
   * the turn takes a place in arrival order (calls for one conversation are admitted in the order
   * they were made). The runner gives the place up whatever becomes of the turn. Never rejects.
   */
  accept(request: TurnRequest, view: TurnView, place?: LinePlace): Promise<{ reply: Promise<TurnReply> }> {
    return this.line.accept(
      conversationKey(request),
      () => this.admit(request, view, place),
      (admitted: AdmittedTurn, controller) =>
        // Stopped while it waited behind another process's turn, or queued behind this process's at shutdown.
        !controller || !this.accepting ? this.refuseForShutdown(view, request, admitted.opened) : this.runTurn(request, view, admitted, controller),
    );
  }

  /**
   * Claims a message and takes its place in its conversation's line, in one statement (MessageIntake,
   * before anything else is looked up): the place is this process's until the runner gives it up.
   */
  claim(claim: PlaceClaim): Promise<ClaimOutcome> {
    return this.line.claim(claim);
  }

  /** Gives up a place its message took (MessageIntake) when no turn will come of it. */
  giveUp(place: LinePlace): Promise<void> {
    return this.line.giveUp(place.ticket);
  }

  /** The turn's settings and place, or the reply already shown when it may not run (its place given up). */
  private async admit(request: TurnRequest, view: TurnView, claimed?: LinePlace): Promise<AdmittedTurn | { reply: TurnReply }> {
    if (!this.accepting) return this.refusedAfter(claimed, await this.refuseForShutdown(view, request));
    const { store, logger, observer, instance, limits } = this.options;
    let place = claimed;
    let opened: OpenedTurn | undefined;
    try {
      const settings = await store.workspaceSettings.get(request);
      const admission = await this.admission.check({
        request,
        settings,
        budgetReached: async () =>
          this.options.budgets?.reached({ ...request, channelId: settingsChannelOf(request).channelId, timeZone: budgetTimeZone(settings) }),
        ignoredElsewhere: () => ignoredInSharedWorkspaces(store.workspaceSettings, request),
        takePlace: async () => {
          // Not while it holds back for an earlier message still on its way (see holdUntil).
          const startIfFirst = place?.holdUntil === undefined || place.holdUntil <= Date.now();
          // A turn that starts with its admission is recorded as running in the same transaction.
          const opening = startIfFirst ? await this.openingOf(request, view, settings) : undefined;
          const checks: PlaceChecks = {
            startIfFirst,
            opening: opening?.start,
            maxDepth: limits.maxQueuedTurns,
            rate: request.operator
              ? undefined
              : { key: JSON.stringify([request.platform, request.userId]), limit: limits.ratePerUserPerMinute, windowMs: RATE_WINDOW_MS },
          };
          let admitted: QueueAdmission | undefined;
          if (!place) {
            // Placed and admitted at once, in one transaction where the store can.
            const taken = await this.line.claim({ conversation: request, instance, order: arrivalOrder(), addressed: true, admit: checks });
            if (!("placed" in taken)) throw new Error(`a place without a claim was skipped (${taken.skipped})`);
            place = { ticket: taken.placed };
            admitted = taken.admission;
          }
          admitted ??= await store.queue.admit(place.ticket, checks);
          // A refused place was given up with the refusal.
          if ("refused" in admitted) {
            this.line.forget(place.ticket);
            place = undefined;
            return admitted;
          }
          if (admitted.started) place = { ...place, started: true };
          if (admitted.opened && opening) opened = { turnId: opening.start.id, policy: opening.policy, conversation: admitted.opened };
          return { place };
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
        return this.refusedAfter(place, reply);
      }
      try {
        view.begin?.();
      } catch (error) {
        logger.warn({ err: error }, "could not show that the bot is working");
      }
      return { settings, ...admission.place, opened };
    } catch (error) {
      logger.error({ err: error, platform: request.platform, workspace: request.workspaceId }, "could not admit a turn");
      const reply: TurnReply = { turnId: "", status: "failed", outcome: "error", text: RUNNER_TEXT.unexpected };
      await finish(view, reply, logger);
      return this.refusedAfter(place, reply);
    }
  }

  /** A turn that will not run: its place (if it has one) is given up once its reply was shown. */
  private async refusedAfter(place: LinePlace | undefined, reply: TurnReply): Promise<{ reply: TurnReply }> {
    if (place) await this.line.giveUp(place.ticket);
    return { reply };
  }

  /** Entries held in memory by admission (for the leak checks). */
  get trackedEntries(): number {
    return this.admission.trackedEntries;
  }

  get inFlight(): number {
    return this.running.size;
  }

  /** Turns started since this runner was made (a counter, for what watches the bot's activity). */
  get turnsStarted(): number {
    return this.startedCount;
  }

  /** Conversations with a turn waiting or running; idle ones hold no queue entry. */
  get activeConversations(): number {
    return this.line.activeConversations;
  }

  get isAccepting(): boolean {
    return this.accepting;
  }

  /** Resolves once no turn is waiting or running. */
  async idle(): Promise<void> {
    while (this.line.busy) await sleep(10);
  }

  /**
   * Stops taking turns, lets running ones finish, then cancels the rest (their users are told the
   * bot restarted). Turns waiting for a person, or for another process's turn, stop at once.
   * Resolves within `graceMs` (at least half a second, for the cancelled turns to say so) whatever
   * is still running: the last second of the grace is kept for those messages.
   */
  async shutdown(graceMs: number): Promise<void> {
    this.accepting = false;
    // A turn waiting for a person (or behind another process's turn) cannot end by itself within the grace: it stops now.
    for (const controller of this.awaitingPeople.keys()) controller.abort("shutdown" satisfies CancelReason);
    this.line.cancelWaiting("shutdown" satisfies CancelReason);
    const start = Date.now();
    const abortAt = start + Math.max(0, graceMs - SAY_RESTARTED_MS);
    const deadline = Math.max(start + graceMs, abortAt + SAY_RESTARTED_MS / 2);
    while (this.running.size > 0 && Date.now() < abortAt) await sleep(25);
    for (const { controller } of this.running.values()) controller.abort("shutdown" satisfies CancelReason);
    this.stopping.abort("shutdown" satisfies CancelReason);
    // Turns still queued behind them answer "restarted" without touching the store, which closes next.
    while (this.line.busy && Date.now() < deadline) await sleep(10);
    if (this.line.busy) {
      this.options.logger.warn(
        { turns: this.running.size, conversations: this.line.activeConversations },
        "shutdown grace over; leaving turns that did not stop",
      );
    }
    await this.line.stopRetrying();
  }

  /**
   * Stops the turn running in a conversation at once (its user asked to: Ctrl-C in the terminal);
   * it ends as "Stopped." and is recorded as interrupted. Turns queued behind it still run. False
   * when none was running there.
   */
  stop(conversation: ConversationRef): boolean {
    const key = conversationKey(conversation);
    let stopped = false;
    for (const turn of this.running.values()) {
      if (turn.conversation !== key || turn.controller.signal.aborted) continue;
      turn.controller.abort("stopped" satisfies CancelReason);
      stopped = true;
    }
    return stopped;
  }

  /** A turn stopped before it ran; one already recorded as running (opened) is recorded as interrupted. */
  private async refuseForShutdown(view: TurnView, request: TurnRequest, opened?: OpenedTurn): Promise<TurnReply> {
    const reply: TurnReply = { turnId: opened?.turnId ?? "", status: "failed", outcome: "shutdown", text: RUNNER_TEXT.shutdown };
    if (opened) {
      const { logger } = this.options;
      const kept = { steps: new StepRecorder(view, logger), calls: new ModelCallLog(() => 0) };
      await this.recordFailure(opened.turnId, reply, new Error("stopped before it ran: the bot is shutting down"), kept, emptyUsage(), request, logger);
    }
    await finish(view, reply, this.options.logger);
    return reply;
  }

  /** The record of a turn about to start, and the policy it is read with (PlaceChecks.opening). */
  private async openingOf(request: TurnRequest, view: TurnView, settings: WorkspaceSettings): Promise<{ start: Omit<TurnStart, "place">; policy: TurnPolicy }> {
    const channel = settingsChannelOf(request);
    const policy = await this.options.policies.forTurn(channel, settings);
    return { start: this.turnStart(newTurnId(), request, view, policy, channel), policy };
  }

  /** The record of a turn starting; the place it holds is added where it is known (PlaceChecks.opening). */
  private turnStart(turnId: string, request: TurnRequest, view: TurnView, policy: TurnPolicy, channel: ChannelRef): Omit<TurnStart, "place"> {
    return {
      id: turnId,
      conversation: request,
      userId: request.userId,
      instance: this.options.instance,
      context: { model: policy.model, channelId: channel.channelId },
      // The terminal's session ends with its process: nobody to tell after a restart.
      noticeTo: request.operator ? undefined : this.askedIn(view, this.options.logger),
    };
  }

  private async runTurn(request: TurnRequest, view: TurnView, { settings, ticket, opened }: AdmittedTurn, controller: AbortController): Promise<TurnReply> {
    const { store, logger: baseLogger } = this.options;
    const turnId = opened?.turnId ?? newTurnId();
    const logger = lazyChild(baseLogger, { turnId, platform: request.platform, workspace: request.workspaceId });
    // Paused while a call waits for a person's approval: see TurnDeadline.
    const deadline = new TurnDeadline(this.options.turnTimeoutMs, () => controller.abort("timeout" satisfies CancelReason));
    this.running.set(turnId, { controller, conversation: conversationKey(request) });
    this.startedCount++;
    const steps = new StepRecorder(view, logger, this.options.observer);
    const calls = new ModelCallLog(() => steps.begun);
    let trace: TurnTrace | undefined;
    // Made at intake while the turn waited and ran; whatever it is by the closing is kept (never waited for).
    let link: string | undefined;
    void request.posted?.link?.then((made) => {
      link = made;
    });
    const started = performance.now();
    const usage = emptyUsage();
    let recorded = opened !== undefined;
    let question: ReadQuestion | undefined;
    let reply: TurnReply;
    let summaryTurn: SummaryTurn | undefined;
    try {
      const channel = settingsChannelOf(request);
      const policy = opened?.policy ?? (await this.options.policies.forTurn(channel, settings));
      const conversation =
        opened?.conversation ??
        (await store.turns.start({
          ...this.turnStart(turnId, request, view, policy, channel),
          // The place is held until the answer was posted: a dead process's answered turn that still holds it was not shown.
          place: ticket.id,
        }));
      recorded = true;
      trace = this.traceOf({ turnId, platform: request.platform, workspaceId: request.workspaceId, channelId: channel.channelId, model: policy.model }, logger);
      logger.debug({ user: request.userId, text: request.text, model: policy.model }, "turn started");
      const context: TurnContext = { turnId, request, channel, view, controller, deadline };
      const read = (question = await this.readQuestion(request, policy.model, controller.signal, logger));
      const result = await this.ask(context, policy, read, conversation, steps, calls, usage, logger, budgetTimeZone(settings));
      const thread = await this.threadToSeed(view, request);
      reply = { turnId, status: "answered", outcome: result.outcome, text: result.output };
      if (policy.memorySummary) {
        const note = view.note?.bind(view);
        summaryTurn = { where: request, conversation, channelId: channel.channelId, window: policy.memoryWindow, model: policy.model, note };
      }
      const closing: TurnClosing = {
        turnId,
        end: { status: "answered", outcome: result.outcome, iterations: result.iterations, usage: result.usage },
        // A copy: the closing may be written more than once (see closeTurn), and an iterator reads once.
        steps: [...steps.records()],
        modelCalls: calls.calls,
        traceId: trace?.traceId,
        link,
        workspace: request,
        // Memory keeps what the person wrote and a description of the files, never their content.
        exchange: {
          conversationId: conversation.id,
          question: { author: request.userName ?? request.userId, text: request.text, attachments: read.files, sourceId: request.messageId },
          answer: result.output,
          alsoIn: thread,
        },
      };
      // The closing may wait for a group commit (SQLite): a streamed answer shows nothing more meanwhile.
      answerDone(view, logger);
      await this.closeTurn(closing, "record the answered turn", logger);
      // Queued, not awaited: the writer indexes it in a batch of its own while the answer is posted,
      // and before the conversation's next turn could search for it.
      this.indexExchange(request, turnId, result.output);
      logger.info(
        { outcome: result.outcome, iterations: result.iterations, tools: steps.toolsUsed, tokens: usage.totalTokens, ms: elapsedMs(started) },
        "turn answered",
      );
      logger.debug({ text: result.output }, "turn answer");
    } catch (error) {
      reply = { turnId, status: "failed", ...describeFailure(error, controller.signal, this.options.turnTimeoutMs) };
      if (recorded) await this.recordFailure(turnId, reply, error, { steps, calls, traceId: trace?.traceId, link }, usage, request, logger);
      const level = reply.outcome === "error" ? "error" : "warn";
      logger[level]({ err: error, outcome: reply.outcome, tools: steps.toolsUsed, tokens: usage.totalTokens, ms: elapsedMs(started) }, "turn failed");
    } finally {
      deadline.stop();
      this.running.delete(turnId);
      question?.release();
    }
    trace?.end({
      status: reply.status,
      outcome: reply.outcome,
      ...(reply.status === "failed" ? { error: reply.text } : {}),
      modelCalls: calls.calls,
      steps: steps.records(),
      usage,
    });
    await finish(view, reply, logger);
    // After the answer was shown, in the background: the turn does not wait for its summary.
    if (summaryTurn && reply.status === "answered") this.options.summaries?.afterTurn(summaryTurn);
    this.options.observer?.turnFinished?.({
      platform: request.platform,
      status: reply.status,
      outcome: reply.outcome,
      durationMs: elapsedMs(started),
      tokens: usage.totalTokens,
    });
    return { ...reply, tokens: usage.totalTokens };
  }

  /** The turn's trace, when traces are exported; a tracer that fails costs only the trace. */
  private traceOf(turn: TracedTurn, logger: Logger): TurnTrace | undefined {
    try {
      return this.options.tracer?.begin(turn);
    } catch (error) {
      logger.warn({ err: error }, "could not start the turn's trace");
      return undefined;
    }
  }

  /** Where the asker is told the bot restarted, should this process die mid-turn; a view that fails costs only that. */
  private askedIn(view: TurnView, logger: Logger): NoticeTarget | undefined {
    try {
      return view.whereAsked?.();
    } catch (error) {
      logger.debug({ err: error }, "could not tell where the question was asked");
      return undefined;
    }
  }

  /** The stored exchange, queued for the history index: the question by its asker, the answer by the bot, both linked to the question. */
  private indexExchange(request: TurnRequest, turnId: string, answer: string): void {
    const { history } = this.options;
    const posted = request.posted;
    if (!history || !posted) return;
    const { platform, workspaceId } = request;
    const place = { platform, workspaceId, channelId: posted.channelId, threadId: posted.threadId, turnId, link: posted.link };
    history.add({
      ...place,
      messageId: posted.messageId,
      kind: "question",
      authorId: request.userId,
      authorName: request.userName ?? request.userId,
      text: request.text,
      time: posted.time,
    });
    history.add({ ...place, messageId: `${posted.messageId}#answer`, kind: "answer", authorId: "bot", authorName: "bot", text: answer, time: Date.now() });
  }

  /** The question with what it shares; an unexpected failure here costs the files, not the turn. */
  private async readQuestion(request: TurnRequest, model: string, signal: AbortSignal, logger: Logger): Promise<ReadQuestion> {
    try {
      return await this.options.reader.read(request.text, request.shared, { model, signal, logger });
    } catch (error) {
      logger.error({ err: error }, "could not read what the question shares; answering from its text");
      return { text: request.text, images: [], files: [], release: () => {} };
    }
  }

  private async ask(
    turn: TurnContext,
    policy: TurnPolicy,
    question: ReadQuestion,
    conversation: Conversation,
    steps: StepRecorder,
    calls: ModelCallLog,
    usage: Usage,
    logger: Logger,
    timeZone: string,
  ): Promise<AgentResult> {
    const { store, agent, memoryTokenBudget, budgets } = this.options;
    const { request } = turn;
    const { needApproval } = policy.tools;
    const summaries = policy.memorySummary ? this.options.summaries : undefined;
    const [history, memory] = await Promise.all([
      store.conversations.window(conversation, policy.memoryWindow, memoryTokenBudget),
      summaries?.promptFor({ conversation, window: policy.memoryWindow }),
    ]);
    return agent.run({
      memory,
      history: history.map(withStoredFilesNamed),
      input: question.text,
      images: question.images,
      instructions: policy.instructions,
      model: policy.model,
      tools: policy.tools.tools,
      request: {
        platform: request.platform,
        workspaceId: request.workspaceId,
        channelId: request.channelId,
        threadId: request.threadId,
        parentChannelId: request.parentChannelId,
        userId: request.userId,
        readChannel: request.readChannel,
      },
      signal: turn.controller.signal,
      logger,
      onStep: (event) => steps.record(event),
      onAnswerText: this.options.streamAnswers ? answerTextFor(turn.view, logger) : undefined,
      approval: needApproval.size > 0 ? { tools: needApproval, ask: (call, signal) => this.waitForApproval(turn, call, signal) } : undefined,
      usage,
      budget: budgets?.forCall({ ...request, channelId: turn.channel.channelId, timeZone }),
      modelCalls: calls,
    });
  }

  /**
   * Asks the turn's view to show a request for approval and waits for a person. The turn's time
   * limit stops meanwhile (the request has its own, APPROVAL_TIMEOUT_MS); shutdown ends the wait at once.
   */
  private async waitForApproval(turn: TurnContext, call: ApprovalRequest, signal: AbortSignal): Promise<ApprovalVerdict> {
    const { controller, deadline, request } = turn;
    if (!this.accepting) controller.abort("shutdown" satisfies CancelReason);
    this.awaitingPeople.set(controller, (this.awaitingPeople.get(controller) ?? 0) + 1);
    deadline.pause();
    try {
      return await this.options.approvals.request(
        {
          turnId: turn.turnId,
          platform: request.platform,
          workspaceId: request.workspaceId,
          channelId: turn.channel.channelId,
          asker: { id: request.userId, name: request.userName ?? request.userId },
          tool: call.tool,
          args: call.args,
        },
        turn.view,
        signal,
      );
    } finally {
      deadline.resume();
      const waiting = (this.awaitingPeople.get(controller) ?? 1) - 1;
      if (waiting > 0) this.awaitingPeople.set(controller, waiting);
      else this.awaitingPeople.delete(controller);
    }
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

  /** Writes a turn's closing, again while the store fails, for up to CLOSE_RETRY_MS (less at shutdown). */
  private closeTurn(closing: TurnClosing, what: string, logger: Logger): Promise<void> {
    return retryStoreWrite(() => this.options.store.turns.finish(closing), { what, logger, withinMs: CLOSE_RETRY_MS, signal: this.stopping.signal });
  }

  /** The failed turn's row, steps and tokens; a store that fails here too is only logged (the user still hears). */
  private async recordFailure(
    turnId: string,
    reply: TurnReply,
    error: unknown,
    kept: { steps: StepRecorder; calls: ModelCallLog; traceId?: string; link?: string },
    usage: Usage,
    request: TurnRequest,
    logger: Logger,
  ): Promise<void> {
    try {
      const end = {
        status: reply.outcome === "shutdown" || reply.outcome === "stopped" ? "interrupted" : "failed",
        outcome: reply.outcome,
        iterations: 0,
        usage,
        error: errorDetail(error),
      } as const;
      const closing: TurnClosing = {
        turnId,
        end,
        steps: [...kept.steps.records()],
        modelCalls: kept.calls.calls,
        traceId: kept.traceId,
        link: kept.link,
        workspace: request,
      };
      await this.closeTurn(closing, "record the failed turn", logger);
    } catch (storeError) {
      logger.error({ err: storeError }, "could not record the failed turn");
    }
  }
}

const elapsedMs = (start: number) => Math.round(performance.now() - start);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

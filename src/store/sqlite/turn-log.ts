import { modelCallRows, noticeTargetJson, stepRows, storable, utcDay, type TurnClosing, type TurnStart } from "../turn-records.js";
import type { TokenUsageStore, TurnStore } from "../store.js";
import { addValuesToRollup, ROLLUP_DAY_MS, ROLLUP_KEYS_OF_TURN, type RollupKeys } from "../usage-rollup-sql.js";
import type { Conversation, WorkspaceRef } from "../types.js";
import type { SqliteConversations } from "./conversations.js";
import type { Db } from "./database.js";
import { RowsInsert } from "./rows-insert.js";

/** A turn_model_calls row's values, in its columns' order (bound one by one: cheaper than SQLite reading them out of JSON). */
type ModelCallValues = [string, number, string, string, string, number, number, number, number | null, number | null, number | null, string, number];
/** Turns whose rollup keys are kept (far more than run at once). */
const MAX_OPEN_KEYS = 10_000;

/** A turn_steps row's values, in its columns' order. */
type StepValues = [string, number, string, string, string | null, string | null, number, number | null, number | null];

/** A closing waiting for the next group commit, with its turn's `finish` to settle. */
interface WaitingClosing {
  closing: TurnClosing;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * The audit trail and the daily token usage; a turn closes in one transaction. Turns that close
 * together share it (group commit, issue 30): the closings asked for while the event loop runs one
 * round of callbacks are written in one transaction at its end (setImmediate), and each turn's
 * `finish` resolves once that commit is done, so an answer is still shown only once it is durable.
 * What a commit costs is mostly the pages it writes to the log, and closings of many turns share
 * pages (turns, messages, the day's tokens). If the shared transaction fails for one closing's
 * rows, each closing is written on its own, so a bad closing fails only its turn; if it fails for
 * the file (busy past the timeout, full), every closing of the group fails at once and the runner
 * retries each, rather than each waiting out the busy timeout again on the main thread.
 */
export class SqliteTurnLog implements TurnStore, TokenUsageStore {
  private readonly insertTurn;
  private readonly placeTurn;
  private readonly updateTurn;
  private readonly updateRunningTurn;
  private readonly insertSteps;
  private readonly insertCalls;
  private readonly addTokens;
  private readonly selectTokens;
  private readonly rollupKeys;
  private readonly rollUpChannel;
  private readonly rollUpUser;
  /**
   * What the daily rollup is keyed by, for the turns this process recorded as running: their
   * closing adds to the rollup without reading the turn back (a turn started by another process
   * run, or closed after a restart, is read: ROLLUP_KEYS_OF_TURN). Dropped once the closing commits.
   */
  private readonly openKeys = new Map<string, Omit<RollupKeys, "counted">>();
  /** Built once: better-sqlite3 makes four wrapper functions for every db.transaction() call. */
  private readonly startTurn: (turn: TurnStart) => Conversation;
  /** `start`'s writes inside a transaction of the caller's: the queue's admission opens the turn with them (PlaceChecks.opening). */
  readonly startInside: (turn: TurnStart) => Conversation;
  private readonly closeTurn: (closing: TurnClosing) => void;
  private readonly closeTurns: (closings: readonly TurnClosing[]) => void;
  private waiting: WaitingClosing[] = [];

  constructor(
    db: Db,
    private readonly conversations: SqliteConversations,
  ) {
    this.insertTurn = db.prepare<[string, number, string, number, string, string | null, string | null, string | null]>(
      `INSERT INTO turns (id, conversation_id, user_id, status, started_at, instance, model, channel_id, notice_to) VALUES (?, ?, ?, 'running', ?, ?, ?, ?, ?)`,
    );
    this.placeTurn = db.prepare<[string, number]>(`UPDATE turn_queue SET turn_id = ? WHERE id = ?`);
    const updateTurn = `UPDATE turns SET status = @status, outcome = @outcome, ended_at = @endedAt,
         duration_ms = @endedAt - started_at, iterations = @iterations,
         prompt_tokens = @promptTokens, completion_tokens = @completionTokens, total_tokens = @totalTokens,
         error = @error, trace_id = @traceId, link = @link
       WHERE id = @id`;
    this.updateTurn = db.prepare(updateTurn);
    // Changes the row only while it runs: whether it did says whether the turn still counts (COUNTED_ONCE).
    this.updateRunningTurn = db.prepare(`${updateTurn} AND status = 'running'`);
    this.insertSteps = new RowsInsert<StepValues>(db, "turn_steps", [
      "turn_id",
      "seq",
      "tool",
      "input",
      "output",
      "error",
      "started_at",
      "duration_ms",
      "approval_wait_ms",
    ]);
    this.insertCalls = new RowsInsert<ModelCallValues>(db, "turn_model_calls", [
      "turn_id",
      "seq",
      "model",
      "provider",
      "purpose",
      "retry",
      "started_at",
      "duration_ms",
      "first_token_ms",
      "prompt_tokens",
      "completion_tokens",
      "outcome",
      "after_step",
    ]);
    this.addTokens = db.prepare<[string, string, string, number]>(
      `INSERT INTO token_usage_daily (platform, workspace_id, day, tokens) VALUES (?, ?, ?, ?)
       ON CONFLICT (platform, workspace_id, day) DO UPDATE SET tokens = tokens + excluded.tokens`,
    );
    // Before the turn's update: the rollup reads whether it is still running (counted once).
    this.rollupKeys = db.prepare<[string], RollupKeys>(ROLLUP_KEYS_OF_TURN);
    const rollup = addValuesToRollup();
    this.rollUpChannel = db.prepare<[string, string, number, string, string, string, number, number, number, number]>(rollup.channels);
    this.rollUpUser = db.prepare<[string, string, number, string, number, number, number, number]>(rollup.users);
    this.selectTokens = db
      .prepare<[string, string, string], number>(`SELECT tokens FROM token_usage_daily WHERE platform = ? AND workspace_id = ? AND day = ?`)
      .pluck();

    this.startInside = (turn: TurnStart) => {
      const conversation = conversations.openNow(turn.conversation);
      const now = Date.now();
      this.insertTurn.run(
        turn.id,
        conversation.id,
        turn.userId,
        now,
        turn.instance,
        turn.context?.model ?? null,
        turn.context?.channelId ?? null,
        noticeTargetJson(turn.noticeTo),
      );
      if (turn.place !== undefined) this.placeTurn.run(turn.id, turn.place);
      const { platform, workspaceId, channelId } = turn.conversation;
      const day = Math.floor(now / ROLLUP_DAY_MS);
      // Bounded: the keys of a turn whose closing never committed are read from its row, should it close after all.
      if (this.openKeys.size >= MAX_OPEN_KEYS) this.openKeys.delete(this.openKeys.keys().next().value!);
      this.openKeys.set(turn.id, {
        platform,
        workspaceId,
        day,
        channelId: turn.context?.channelId ?? channelId,
        model: turn.context?.model ?? "",
        kind: "turn",
        userId: turn.userId,
      });
      return conversation;
    };
    const startTurn = db.transaction(this.startInside);
    // IMMEDIATE: it reads before it writes, and a transaction that holds a read snapshot when it
    // asks for the write lock fails at once (no busy wait) if a checkpoint or another process holds it.
    this.startTurn = (turn) => startTurn.immediate(turn);
    const writeClosing = (closing: TurnClosing) => {
      const { turnId, end, exchange } = closing;
      this.insertSteps.run(
        stepRows(closing.steps).map((step) => [
          turnId,
          step.seq,
          step.tool,
          step.input,
          step.output,
          step.error,
          step.startedAt,
          step.durationMs,
          step.approvalWaitMs,
        ]),
      );
      this.insertCalls.run(
        modelCallRows(closing.modelCalls).map((call) => [
          turnId,
          call.seq,
          call.model,
          call.provider,
          call.purpose,
          call.retry ? 1 : 0,
          call.startedAt,
          call.durationMs,
          call.firstTokenMs,
          call.promptTokens,
          call.completionTokens,
          call.outcome,
          call.afterStep,
        ]),
      );
      if (exchange) {
        conversations.appendExchange(exchange.conversationId, turnId, exchange.question, exchange.answer);
        if (exchange.alsoIn) conversations.startThreadWith(exchange.alsoIn, turnId, exchange.question, exchange.answer);
      }
      const tokens = end.usage.totalTokens;
      if (tokens > 0) this.addTokens.run(closing.workspace.platform, closing.workspace.workspaceId, utcDay(), tokens);
      const { promptTokens, completionTokens } = end.usage;
      const update = {
        id: turnId,
        promptTokens,
        completionTokens,
        totalTokens: tokens,
        status: end.status,
        outcome: end.outcome,
        endedAt: Date.now(),
        iterations: end.iterations,
        error: end.error === undefined ? null : storable(end.error),
        traceId: closing.traceId ?? null,
        link: closing.link === undefined ? null : storable(closing.link),
      };
      const opened = this.openKeys.get(turnId);
      let keys: RollupKeys | undefined;
      if (opened) {
        const counted = this.updateRunningTurn.run(update).changes;
        if (counted === 0) this.updateTurn.run(update);
        keys = { ...opened, counted };
      } else {
        // Before the turn's update: the rollup reads whether it is still running (counted once).
        keys = this.rollupKeys.get(turnId);
        this.updateTurn.run(update);
      }
      if (keys) {
        const { platform, workspaceId, day, counted } = keys;
        this.rollUpChannel.run(platform, workspaceId, day, keys.channelId, keys.model, keys.kind, counted, promptTokens, completionTokens, tokens);
        if (keys.kind === "turn") this.rollUpUser.run(platform, workspaceId, day, keys.userId, counted, promptTokens, completionTokens, tokens);
      }
    };
    this.closeTurn = db.transaction(writeClosing);
    this.closeTurns = db.transaction((closings: readonly TurnClosing[]) => {
      for (const closing of closings) writeClosing(closing);
    });
  }

  async start(turn: TurnStart): Promise<Conversation> {
    return this.startTurn(turn);
  }

  finish(closing: TurnClosing): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ closing, resolve, reject });
      if (this.waiting.length === 1) setImmediate(() => this.commitWaiting());
    });
  }

  /** Writes every closing still waiting now (the store closes: nothing is left behind). */
  commitWaiting(): void {
    const group = this.waiting;
    if (group.length === 0) return;
    this.waiting = [];
    if (group.length > 1) {
      try {
        this.closeTurns(group.map((waiting) => waiting.closing));
        this.conversations.cache.committed();
        for (const waiting of group) this.openKeys.delete(waiting.closing.turnId);
        for (const waiting of group) waiting.resolve();
        return;
      } catch (error) {
        this.conversations.cache.rolledBack();
        // The file failed (busy past the timeout, full, unreadable): alone each would wait and fail again; the runner retries each.
        if (!closingAtFault(error)) {
          for (const waiting of group) waiting.reject(error);
          return;
        }
        // One closing is bad: each is tried alone, and only the bad one fails.
      }
    }
    for (const waiting of group) this.commitOne(waiting);
  }

  private commitOne({ closing, resolve, reject }: WaitingClosing): void {
    try {
      this.closeTurn(closing);
    } catch (error) {
      this.conversations.cache.rolledBack();
      reject(error);
      return;
    }
    this.conversations.cache.committed();
    this.openKeys.delete(closing.turnId);
    resolve();
  }

  async tokensToday(workspace: WorkspaceRef, time = Date.now()): Promise<number> {
    return this.selectTokens.get(workspace.platform, workspace.workspaceId, utcDay(time)) ?? 0;
  }
}

/** A failure one closing's own rows cause (a constraint, a value SQLite refuses), as opposed to the file's. */
function closingAtFault(error: unknown): boolean {
  const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code !== "string" || code.startsWith("SQLITE_CONSTRAINT") || code === "SQLITE_MISMATCH" || code === "SQLITE_TOOBIG" || code === "SQLITE_RANGE";
}

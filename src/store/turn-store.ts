import { shorten } from "../text.js";
import type { Db } from "./database.js";

/**
 * The most characters of a step's input, output or error the audit keeps. The agent already
 * caps what a step carries; this bounds every row whatever the caller passes.
 */
const MAX_STORED_STEP_CHARS = 8_000;
const MAX_STORED_TOOL_NAME = 200;

const capped = (text: string | undefined) => (text === undefined ? null : shorten(text, MAX_STORED_STEP_CHARS));

type TurnStatus = "running" | "answered" | "failed" | "interrupted";

interface TurnUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

export interface TurnEnd {
  status: Exclude<TurnStatus, "running">;
  /** How the turn ended in words the audit can group by: answer, direct, iteration_limit, llm_error, timeout, ... */
  outcome: string;
  iterations: number;
  usage: TurnUsage;
  error?: string;
}

export interface StepRecord {
  seq: number;
  tool: string;
  input: unknown;
  startedAt: number;
  /** Set once the step ended: its output, or why it failed, and how long it took. */
  output?: string;
  error?: string;
  durationMs?: number;
}

/** The audit trail: one row per turn, one per tool step. */
export class TurnStore {
  private readonly insertTurn;
  private readonly updateTurn;
  private readonly insertStep;
  private readonly interruptRunning;
  /** Built once: better-sqlite3 makes four wrapper functions for every db.transaction() call. */
  private readonly closeTurn: (id: string, end: TurnEnd, within?: () => void) => void;

  constructor(db: Db) {
    this.insertTurn = db.prepare<[string, number, string, number, string, string | null, string | null]>(
      `INSERT INTO turns (id, conversation_id, user_id, status, started_at, instance, model, channel_id) VALUES (?, ?, ?, 'running', ?, ?, ?, ?)`,
    );
    this.updateTurn = db.prepare(
      `UPDATE turns SET status = @status, outcome = @outcome, ended_at = @endedAt,
         duration_ms = @endedAt - started_at, iterations = @iterations,
         prompt_tokens = @promptTokens, completion_tokens = @completionTokens, total_tokens = @totalTokens,
         error = @error
       WHERE id = @id`,
    );
    this.insertStep = db.prepare<[string, number, string, string, string | null, string | null, number, number | null]>(
      `INSERT INTO turn_steps (turn_id, seq, tool, input, output, error, started_at, duration_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.closeTurn = db.transaction((id: string, end: TurnEnd, within?: () => void) => {
      within?.();
      this.updateTurn.run({
        id,
        status: end.status,
        outcome: end.outcome,
        endedAt: Date.now(),
        iterations: end.iterations,
        promptTokens: end.usage.promptTokens,
        completionTokens: end.usage.completionTokens,
        totalTokens: end.usage.totalTokens,
        error: end.error ?? null,
      });
    });
    this.interruptRunning = db.prepare<[number, string]>(
      `UPDATE turns SET status = 'interrupted', outcome = 'interrupted', ended_at = ?,
         error = 'the bot stopped before this turn finished' WHERE status = 'running' AND instance = ?`,
    );
  }

  /**
   * `instance` names the process (e.g. a Discord shard); processes sharing the database use
   * different names. `context` is what usage reports group by: the model and the channel (a thread's channel).
   */
  start(id: string, conversationId: number, userId: string, instance = "main", context?: { model: string; channelId: string }): void {
    this.insertTurn.run(id, conversationId, userId, Date.now(), instance, context?.model ?? null, context?.channelId ?? null);
  }

  /** Closes a turn; `within` runs in the same transaction (the runner stores the exchange there). */
  finish(id: string, end: TurnEnd, within?: () => void): void {
    this.closeTurn(id, end, within);
  }

  /** Writes a turn's tool steps. The runner calls it inside the transaction that closes the turn: one commit per turn, not per step. */
  saveSteps(turnId: string, steps: Iterable<StepRecord>): void {
    for (const step of steps) {
      this.insertStep.run(
        turnId,
        step.seq,
        shorten(step.tool, MAX_STORED_TOOL_NAME),
        shorten(JSON.stringify(step.input ?? null), MAX_STORED_STEP_CHARS),
        capped(step.output),
        capped(step.error),
        step.startedAt,
        step.durationMs ?? null,
      );
    }
  }

  /** At start-up: turns this instance's previous process left running were cut off by a crash or kill. */
  markInterrupted(instance = "main"): number {
    return this.interruptRunning.run(Date.now(), instance).changes;
  }
}

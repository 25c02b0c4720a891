import type { Db } from "./database.js";

export type TurnStatus = "running" | "answered" | "failed" | "interrupted";

export interface TurnUsage {
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
}

/** The audit trail: one row per turn, one per tool step. */
export class TurnStore {
  private readonly insertTurn;
  private readonly updateTurn;
  private readonly insertStep;
  private readonly updateStep;
  private readonly interruptRunning;

  constructor(private readonly db: Db) {
    this.insertTurn = db.prepare<[string, number, string, number, string]>(
      `INSERT INTO turns (id, conversation_id, user_id, status, started_at, instance) VALUES (?, ?, ?, 'running', ?, ?)`,
    );
    this.updateTurn = db.prepare(
      `UPDATE turns SET status = @status, outcome = @outcome, ended_at = @endedAt,
         duration_ms = @endedAt - started_at, iterations = @iterations,
         prompt_tokens = @promptTokens, completion_tokens = @completionTokens, total_tokens = @totalTokens,
         error = @error
       WHERE id = @id`,
    );
    this.insertStep = db.prepare<[string, number, string, string, number]>(
      `INSERT INTO turn_steps (turn_id, seq, tool, input, started_at) VALUES (?, ?, ?, ?, ?)`,
    );
    this.updateStep = db.prepare<[string | null, string | null, number, string, number]>(
      `UPDATE turn_steps SET output = ?, error = ?, duration_ms = ? WHERE turn_id = ? AND seq = ?`,
    );
    this.interruptRunning = db.prepare<[number, string]>(
      `UPDATE turns SET status = 'interrupted', outcome = 'interrupted', ended_at = ?,
         error = 'the bot stopped before this turn finished' WHERE status = 'running' AND instance = ?`,
    );
  }

  /** `instance` names the process (e.g. a Discord shard); processes sharing the database use different names. */
  start(id: string, conversationId: number, userId: string, instance = "main"): void {
    this.insertTurn.run(id, conversationId, userId, Date.now(), instance);
  }

  /** Closes a turn; `within` runs in the same transaction (the runner stores the exchange there). */
  finish(id: string, end: TurnEnd, within?: () => void): void {
    this.db.transaction(() => {
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
    })();
  }

  stepStarted(turnId: string, step: StepRecord): void {
    this.insertStep.run(turnId, step.seq, step.tool, JSON.stringify(step.input ?? null), step.startedAt);
  }

  stepEnded(turnId: string, seq: number, result: { output?: string; error?: string; durationMs: number }): void {
    this.updateStep.run(result.output ?? null, result.error ?? null, result.durationMs, turnId, seq);
  }

  /** At start-up: turns this instance's previous process left running were cut off by a crash or kill. */
  markInterrupted(instance = "main"): number {
    return this.interruptRunning.run(Date.now(), instance).changes;
  }
}

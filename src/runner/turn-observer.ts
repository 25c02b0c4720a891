import type { ModelCallObserver } from "../agent/model.js";

/**
 * What the runner reports for metrics, and each model request (the catalog's, through
 * `modelCallFinished`); every method is optional so observers implement what they count.
 */
export interface TurnObserver extends Partial<ModelCallObserver> {
  turnFinished?(info: { platform: string; status: string; outcome: string; durationMs: number; tokens: number }): void;
  turnRefused?(info: { platform: string; outcome: string }): void;
  /** `durationMs`: the time the tool ran, without `approvalWaitMs`, the wait for a person's approval before it. */
  toolFinished?(info: { tool: string; ok: boolean; durationMs: number; approvalWaitMs?: number }): void;
}

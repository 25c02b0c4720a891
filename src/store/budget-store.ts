import type { BudgetScope, BudgetPeriod } from "../contract/commands.js";
import type { WorkspaceRef } from "./types.js";

type BudgetUnit = "tokens" | "usd";

export interface BudgetAmount {
  unit: BudgetUnit;
  amount: number;
}

/** Which budget of a workspace: its own, a channel's, or a user's ("*": every user's, unless one has their own). */
export interface BudgetSlot {
  scope: BudgetScope;
  /** "" for the workspace, the channel's id, or the user's id (or "*"). */
  subject: string;
  period: BudgetPeriod;
}

/**
 * A budget's entry in the settings audit, written with the change like every setting's: the key
 * names the slot (`budget:user:*:day`; the workspace's own has no subject, `budget:workspace::month`),
 * the value is the amount set, or null where it was removed.
 */
export function budgetAuditEntry(slot: BudgetSlot, amount: BudgetAmount | undefined): { key: string; valueJson: string } {
  return {
    key: `budget:${slot.scope}:${slot.subject}:${slot.period}`,
    valueJson: JSON.stringify(amount === undefined ? null : { unit: amount.unit, amount: amount.amount }),
  };
}

export interface StoredBudget extends BudgetSlot, BudgetAmount {
  changedBy: string;
  changedAt: number;
}

/** One budget a model call counts against, in its window, with the call's costs in the budget's unit. */
export interface BudgetLine {
  /** The budget's identity, the same in every process (see budgetKey). */
  key: string;
  /** The start of its current window (ms since the epoch). */
  windowStart: number;
  limit: number;
  /** The call's prompt. */
  promptCost: number;
  /** One token of its answer. */
  tokenCost: number;
}

export interface ReserveRequest {
  lines: readonly BudgetLine[];
  /** The most answer tokens a call is given when no budget limits it (what is reserved for it). */
  ceiling: number;
  /** Fewer answer tokens than this make no useful answer: the call is then not made. */
  floor: number;
  now: number;
  /**
   * Holds of a budget against which nothing was reserved for this long are dropped (their calls
   * ended long ago: a process died mid-call). Longer than any call takes.
   */
  holdMs: number;
}

export type Reservation =
  /** `limitedBy`: the line whose remainder cut maxTokens below the ceiling. */
  | { granted: true; maxTokens: number; limitedBy?: number; held: number[] }
  /** `line`: the budget that has too little left; `prompt`: the prompt alone would cross it. */
  | { granted: false; line: number; why: "prompt" | "floor" };

export interface BudgetCharge {
  key: string;
  windowStart: number;
  /** The call's real cost. */
  amount: number;
  /** What its reservation held, now released. */
  held: number;
}

/**
 * Budgets set by admins, and what was spent against every budget in each window, shared by every
 * process through the database: a call's cost is reserved (held) before it is made, atomically
 * with the check, and settled with its real usage after, so two processes cannot both spend the
 * last of a budget.
 */
export interface BudgetStore {
  /** The admins' budgets of the workspace (the same array for every caller, where cached: not to be changed). */
  limits(workspace: WorkspaceRef): Promise<readonly StoredBudget[]>;
  /** Sets a budget, or with `undefined` removes it (the environment's default applies again); with its entry in the settings audit. */
  setLimit(workspace: WorkspaceRef, slot: BudgetSlot, amount: BudgetAmount | undefined, changedBy: string): Promise<void>;
  /** Checks every line and, if the call may go, holds its cost in each; one transaction. */
  reserve(request: ReserveRequest): Promise<Reservation>;
  /** Releases the call's holds and adds its real cost; returns each budget's spend after it. */
  settle(charges: readonly BudgetCharge[]): Promise<number[]>;
  /** What each budget spent in its window (settled calls). */
  spent(lines: readonly { key: string; windowStart: number }[]): Promise<number[]>;
  /** Every budget's spend in windows that started at `since` or later (operators' report), by key. */
  spendSince(since: number, limit: number): Promise<{ key: string; windowStart: number; amount: number }[]>;
  /** True for the one caller that records this alert first (a unique insert). */
  claimAlert(key: string, windowStart: number, level: number, now: number): Promise<boolean>;
}

export const budgetKey = (workspace: WorkspaceRef, scope: BudgetScope, subject: string, period: BudgetPeriod) =>
  JSON.stringify([workspace.platform, workspace.workspaceId, scope, subject, period]);

/** The check both engines make inside their transaction, given what each line has used (spent and held). */
export function decideReservation(request: ReserveRequest, used: readonly number[]): Reservation {
  let maxTokens = request.ceiling;
  let limitedBy: number | undefined;
  for (let i = 0; i < request.lines.length; i++) {
    const line = request.lines[i]!;
    const left = line.limit - used[i]! - line.promptCost;
    if (left < 0) return { granted: false, line: i, why: "prompt" };
    const tokens = line.tokenCost > 0 ? Math.floor(left / line.tokenCost) : Number.POSITIVE_INFINITY;
    if (tokens < maxTokens) {
      maxTokens = tokens;
      limitedBy = i;
    }
  }
  if (maxTokens < request.floor) return { granted: false, line: limitedBy ?? 0, why: "floor" };
  const held = request.lines.map((line) => line.promptCost + maxTokens * line.tokenCost);
  return limitedBy === undefined ? { granted: true, maxTokens, held } : { granted: true, maxTokens, limitedBy, held };
}

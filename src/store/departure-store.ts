import type { WorkspaceRef } from "./types.js";

/** A workspace the app left (was uninstalled from), and when. */
export interface Departure extends WorkspaceRef {
  leftAt: number;
  reason: string;
}

/**
 * Workspaces the app was uninstalled from: their schedules do not run while the departure stands
 * (the schedules' queries skip them), and their data is purged once the delay is over, in
 * bounded rounds. A reinstall before then takes the departure back and keeps everything.
 */
export interface DepartureStore {
  /** Records the departure; an earlier one keeps its time (a second uninstall event changes nothing). */
  left(departure: Departure): Promise<void>;
  /** The workspace is back (reinstalled): nothing of it is purged. True when it had left. */
  returned(workspace: WorkspaceRef): Promise<boolean>;
  /** Departures made at or before `cutoff` (ms), oldest first: the ones whose data may go. */
  due(cutoff: number, limit: number): Promise<Departure[]>;
  /**
   * Deletes up to `limit` rows of one kind of the workspace's data (children before the rows they
   * belong to), in one transaction, and only while its departure (at or before `cutoff`) stands.
   * Returns the rows deleted; 0 once nothing is left, and then the departure itself is gone too.
   */
  purgeRound(workspace: WorkspaceRef, cutoff: number, limit: number): Promise<number>;
}

/**
 * What a workspace's data is, table by table, in an order that deletes children first (turn steps
 * and votes before their turns, messages and summaries before their conversations). `@p` is the
 * platform, `@w` the workspace, `@k` the prefix of its budgets' keys (see budgetKey).
 */
const IN_CONVERSATIONS = "conversation_id IN (SELECT id FROM conversations WHERE platform = @p AND workspace_id = @w)";
const OWN = "platform = @p AND workspace_id = @w";
export const PURGE_PLAN: readonly { table: string; match: string /** Its primary key where SQLite keeps no rowid. */; key?: string }[] = [
  { table: "turn_feedback", match: OWN },
  { table: "turn_steps", match: `turn_id IN (SELECT id FROM turns WHERE ${IN_CONVERSATIONS})` },
  { table: "turn_model_calls", match: `turn_id IN (SELECT id FROM turns WHERE ${IN_CONVERSATIONS})`, key: "turn_id, seq" },
  { table: "messages", match: IN_CONVERSATIONS },
  { table: "conversation_summaries", match: IN_CONVERSATIONS },
  { table: "turns", match: IN_CONVERSATIONS },
  { table: "conversations", match: OWN },
  { table: "history_messages", match: OWN },
  { table: "approvals", match: OWN },
  { table: "bot_threads", match: OWN },
  { table: "scheduled_tasks", match: OWN },
  { table: "workspace_settings", match: OWN },
  { table: "settings_changes", match: OWN },
  { table: "tool_settings", match: OWN },
  { table: "tool_approval_settings", match: OWN },
  { table: "channel_settings", match: OWN },
  { table: "token_usage_daily", match: OWN },
  { table: "usage_daily", match: OWN, key: "platform, workspace_id, day, channel_id, model, kind" },
  { table: "usage_daily_users", match: OWN, key: "platform, workspace_id, day, user_id" },
  { table: "budget_limits", match: OWN },
  { table: "budget_spend", match: "substr(budget_key, 1, length(@k)) = @k", key: "budget_key, window_start" },
  { table: "budget_alerts", match: "substr(budget_key, 1, length(@k)) = @k" },
];

/** The start every budget key of the workspace shares: budgetKey's JSON array up to its workspace. */
const budgetKeyPrefix = (workspace: WorkspaceRef): string => `${JSON.stringify([workspace.platform, workspace.workspaceId]).slice(0, -1)},`;

/** The values a purge step's `@` names stand for. */
export function purgeValues(workspace: WorkspaceRef): Record<"p" | "w" | "k", string> {
  return { p: workspace.platform, w: workspace.workspaceId, k: budgetKeyPrefix(workspace) };
}

/** The `@` names a step's condition uses, in order of first use (each engine binds only those). */
export const namesIn = (match: string): ("p" | "w" | "k")[] => [...new Set([...match.matchAll(/@([pwk])\b/g)].map((m) => m[1] as "p" | "w" | "k"))];

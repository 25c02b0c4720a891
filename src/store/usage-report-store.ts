import type { FeedbackRow } from "./feedback-store.js";
import type { WorkspaceRef } from "./types.js";

/** Turns and tokens of one group (a user, a channel, a model, or all). */
export interface UsageFigures {
  turns: number;
  promptTokens: number;
  completionTokens: number;
}

export interface UsageRow extends UsageFigures {
  /** The user id, the channel id, or the model name ("" when the turn predates recording it). */
  key: string;
}

export interface UsageSummary {
  total: UsageFigures;
  byUser: UsageRow[];
  byChannel: UsageRow[];
  byModel: UsageRow[];
  /** By what the tokens were spent on: "turn" (people's questions) and "summary" (conversation summaries). */
  byKind: UsageRow[];
  /** 👍 / 👎 on the answers of the period's turns, by model and by channel (most votes first). */
  feedback: { byModel: FeedbackRow[]; byChannel: FeedbackRow[] };
}

/** Models are few (OPENAI_MODELS); a cap all the same. */
export const MAX_MODELS = 100;

/**
 * Reads what the turns table records (user, channel, model, tokens in and out) for usage reports
 * and the per-user daily budget. Every turn that ran counts, failed ones too: they spent tokens.
 */
export interface UsageReportStore {
  /** A workspace's turns since `since` (ms), with the `top` biggest users and channels, and every model. */
  summary(workspace: WorkspaceRef, since: number, top: number): Promise<UsageSummary>;
  /** Tokens one user's turns in a workspace spent since `since` (ms). */
  userTokensSince(workspace: WorkspaceRef, userId: string, since: number): Promise<number>;
  /** Workspaces with a turn since `since` (ms), for the operators' export. */
  activeWorkspaces(since: number): Promise<WorkspaceRef[]>;
}

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

/** Turns and tokens of one model on one UTC day (days since the epoch). */
export interface DailyModelUsage extends UsageFigures {
  day: number;
  model: string;
}

/** Models are few (OPENAI_MODELS); a cap all the same. */
export const MAX_MODELS = 100;

/**
 * The one query layer of usage: /usage, `npm run usage` and the console's usage page and export
 * read it. Periods are whole UTC days (days since the epoch, `fromDay` included, up to now), read
 * from the daily rollup (migration 020), so a month costs the same at a million turns as at a
 * hundred. A turn counts once it has ended, failed ones too (they spent tokens); a turn still
 * running is not counted yet. The votes are read from the votes themselves (they change after the
 * turn): they are few beside the turns.
 */
export interface UsageReportStore {
  /** A workspace's turns from `fromDay` on, with the `top` biggest users and channels, and every model. */
  summary(workspace: WorkspaceRef, fromDay: number, top: number): Promise<UsageSummary>;
  /** A workspace's turns and tokens by day and model from `fromDay` on, oldest first. */
  daily(workspace: WorkspaceRef, fromDay: number): Promise<DailyModelUsage[]>;
  /** Tokens one user's turns in a workspace spent since `since` (ms, any time of day: read from the turns). */
  userTokensSince(workspace: WorkspaceRef, userId: string, since: number): Promise<number>;
  /** Workspaces with a turn from `fromDay` on, for the operators' export. */
  activeWorkspaces(fromDay: number): Promise<WorkspaceRef[]>;
}

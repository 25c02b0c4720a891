import type { Db } from "./database.js";
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
}

/** Models are few (OPENAI_MODELS); a cap all the same. */
const MAX_MODELS = 100;
const FIGURES = `COUNT(*) AS turns, COALESCE(SUM(t.prompt_tokens), 0) AS promptTokens, COALESCE(SUM(t.completion_tokens), 0) AS completionTokens`;
const IN_WORKSPACE = `FROM turns t JOIN conversations c ON c.id = t.conversation_id WHERE c.platform = ? AND c.workspace_id = ? AND t.started_at >= ?`;
const grouped = (key: string) =>
  `SELECT ${key} AS key, ${FIGURES} ${IN_WORKSPACE} GROUP BY 1 ORDER BY promptTokens + completionTokens DESC, turns DESC, key LIMIT ?`;

/**
 * Reads what the turns table records (user, channel, model, tokens in and out) for usage reports
 * and the per-user daily budget. Every turn that ran counts, failed ones too: they spent tokens.
 */
export class UsageReportRepository {
  private readonly total;
  private readonly byUser;
  private readonly byChannel;
  private readonly byModel;
  private readonly userTokens;
  private readonly active;

  constructor(db: Db) {
    type Args = [string, string, number];
    this.total = db.prepare<Args, UsageFigures>(`SELECT ${FIGURES} ${IN_WORKSPACE}`);
    this.byUser = db.prepare<[...Args, number], UsageRow>(grouped("t.user_id"));
    // A thread's turns count for its channel; turns from before channels were recorded, for their conversation's.
    this.byChannel = db.prepare<[...Args, number], UsageRow>(grouped("COALESCE(t.channel_id, c.channel_id)"));
    this.byModel = db.prepare<[...Args, number], UsageRow>(grouped("COALESCE(t.model, '')"));
    this.userTokens = db
      .prepare<[string, number, string, string], number>(
        `SELECT COALESCE(SUM(t.total_tokens), 0) FROM turns t JOIN conversations c ON c.id = t.conversation_id
         WHERE t.user_id = ? AND t.started_at >= ? AND c.platform = ? AND c.workspace_id = ?`,
      )
      .pluck();
    this.active = db.prepare<[number], WorkspaceRef>(
      `SELECT DISTINCT c.platform, c.workspace_id AS workspaceId FROM turns t JOIN conversations c ON c.id = t.conversation_id
       WHERE t.started_at >= ? ORDER BY 1, 2`,
    );
  }

  /** A workspace's turns since `since` (ms), with the `top` biggest users and channels, and every model. */
  async summary(workspace: WorkspaceRef, since: number, top: number): Promise<UsageSummary> {
    const args = [workspace.platform, workspace.workspaceId, since] as const;
    return {
      total: this.total.get(...args)!,
      byUser: this.byUser.all(...args, top),
      byChannel: this.byChannel.all(...args, top),
      byModel: this.byModel.all(...args, MAX_MODELS),
    };
  }

  /** Tokens one user's turns in a workspace spent since `since` (ms). */
  async userTokensSince(workspace: WorkspaceRef, userId: string, since: number): Promise<number> {
    return this.userTokens.get(userId, since, workspace.platform, workspace.workspaceId) ?? 0;
  }

  /** Workspaces with a turn since `since` (ms), for the operators' export. */
  async activeWorkspaces(since: number): Promise<WorkspaceRef[]> {
    return this.active.all(since);
  }
}

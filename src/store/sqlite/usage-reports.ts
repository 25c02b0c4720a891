import { MAX_MODELS, type UsageFigures, type UsageReportStore, type UsageRow, type UsageSummary } from "../usage-report-store.js";
import type { FeedbackRow } from "../feedback-store.js";
import type { WorkspaceRef } from "../types.js";
import type { Db } from "./database.js";

const FIGURES = `COUNT(*) AS turns, COALESCE(SUM(t.prompt_tokens), 0) AS promptTokens, COALESCE(SUM(t.completion_tokens), 0) AS completionTokens`;
const IN_WORKSPACE = `FROM turns t JOIN conversations c ON c.id = t.conversation_id WHERE c.platform = ? AND c.workspace_id = ? AND t.started_at >= ?`;
/** `only`: a condition on the turns counted (people's turns alone, for the users). */
const grouped = (key: string, only = "") =>
  `SELECT ${key} AS key, ${FIGURES} ${IN_WORKSPACE} ${only} GROUP BY 1 ORDER BY promptTokens + completionTokens DESC, turns DESC, key LIMIT ?`;

/** Summary calls (kind 'summary') are no person's: the users' figures count turns alone. */
const PEOPLE_ONLY = "AND t.kind = 'turn'";

/** Votes on the workspace's turns since then, grouped by `key` (the same keys as the figures'). */
const votes = (key: string) =>
  `SELECT ${key} AS key, SUM(f.vote = 'up') AS up, SUM(f.vote = 'down') AS down
   FROM turn_feedback f JOIN turns t ON t.id = f.turn_id JOIN conversations c ON c.id = t.conversation_id
   WHERE f.platform = ? AND f.workspace_id = ? AND t.started_at >= ? GROUP BY 1 ORDER BY COUNT(*) DESC, key LIMIT ?`;

/** Usage reports and the per-user daily budget, from the turns table. */
export class SqliteUsageReports implements UsageReportStore {
  private readonly total;
  private readonly byUser;
  private readonly byChannel;
  private readonly byModel;
  private readonly byKind;
  private readonly votesByModel;
  private readonly votesByChannel;
  private readonly userTokens;
  private readonly active;

  constructor(db: Db) {
    type Args = [string, string, number];
    this.total = db.prepare<Args, UsageFigures>(`SELECT ${FIGURES} ${IN_WORKSPACE}`);
    this.byUser = db.prepare<[...Args, number], UsageRow>(grouped("t.user_id", PEOPLE_ONLY));
    // A thread's turns count for its channel; turns from before channels were recorded, for their conversation's.
    this.byChannel = db.prepare<[...Args, number], UsageRow>(grouped("COALESCE(t.channel_id, c.channel_id)"));
    this.byModel = db.prepare<[...Args, number], UsageRow>(grouped("COALESCE(t.model, '')"));
    this.byKind = db.prepare<[...Args, number], UsageRow>(grouped("t.kind"));
    this.votesByModel = db.prepare<[...Args, number], FeedbackRow>(votes("COALESCE(t.model, '')"));
    this.votesByChannel = db.prepare<[...Args, number], FeedbackRow>(votes("COALESCE(t.channel_id, c.channel_id)"));
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

  async summary(workspace: WorkspaceRef, since: number, top: number): Promise<UsageSummary> {
    const args = [workspace.platform, workspace.workspaceId, since] as const;
    return {
      total: this.total.get(...args)!,
      byUser: this.byUser.all(...args, top),
      byChannel: this.byChannel.all(...args, top),
      byModel: this.byModel.all(...args, MAX_MODELS),
      byKind: this.byKind.all(...args, MAX_MODELS),
      feedback: { byModel: this.votesByModel.all(...args, MAX_MODELS), byChannel: this.votesByChannel.all(...args, top) },
    };
  }

  async userTokensSince(workspace: WorkspaceRef, userId: string, since: number): Promise<number> {
    return this.userTokens.get(userId, since, workspace.platform, workspace.workspaceId) ?? 0;
  }

  async activeWorkspaces(since: number): Promise<WorkspaceRef[]> {
    return this.active.all(since);
  }
}

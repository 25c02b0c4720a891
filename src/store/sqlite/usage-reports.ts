import type { FeedbackRow } from "../feedback-store.js";
import { sqlitePlaceholder as p } from "../audit-sql.js";
import type { WorkspaceRef } from "../types.js";
import { activeWorkspacesQuery, usageDailyQuery, usageGroupedQuery, usageTotalQuery, usageVotesQuery, userTokensQuery } from "../usage-report-sql.js";
import { MAX_MODELS, type DailyModelUsage, type UsageFigures, type UsageReportStore, type UsageRow, type UsageSummary } from "../usage-report-store.js";
import type { Db } from "./database.js";

/** Usage reports from the daily rollup, and a user's tokens since a time from the turns (see UsageReportStore). */
export class SqliteUsageReports implements UsageReportStore {
  private readonly total;
  private readonly byUser;
  private readonly byChannel;
  private readonly byModel;
  private readonly byKind;
  private readonly votesByModel;
  private readonly votesByChannel;
  private readonly byDay;
  private readonly userTokens;
  private readonly active;

  constructor(db: Db) {
    type Args = [string, string, number];
    this.total = db.prepare<Args, UsageFigures>(usageTotalQuery(p));
    this.byUser = db.prepare<[...Args, number], UsageRow>(usageGroupedQuery("user_id", p));
    this.byChannel = db.prepare<[...Args, number], UsageRow>(usageGroupedQuery("channel_id", p));
    this.byModel = db.prepare<[...Args, number], UsageRow>(usageGroupedQuery("model", p));
    this.byKind = db.prepare<[...Args, number], UsageRow>(usageGroupedQuery("kind", p));
    this.votesByModel = db.prepare<[...Args, number], FeedbackRow>(usageVotesQuery("model", p));
    this.votesByChannel = db.prepare<[...Args, number], FeedbackRow>(usageVotesQuery("channel", p));
    this.byDay = db.prepare<Args, DailyModelUsage>(usageDailyQuery(p));
    this.userTokens = db.prepare<[string, number, string, string], number>(userTokensQuery(p)).pluck();
    this.active = db.prepare<[number], WorkspaceRef>(activeWorkspacesQuery(p));
  }

  async summary(workspace: WorkspaceRef, fromDay: number, top: number): Promise<UsageSummary> {
    const args = [workspace.platform, workspace.workspaceId, fromDay] as const;
    return {
      total: this.total.get(...args)!,
      byUser: this.byUser.all(...args, top),
      byChannel: this.byChannel.all(...args, top),
      byModel: this.byModel.all(...args, MAX_MODELS),
      byKind: this.byKind.all(...args, MAX_MODELS),
      feedback: { byModel: this.votesByModel.all(...args, MAX_MODELS), byChannel: this.votesByChannel.all(...args, top) },
    };
  }

  async daily(workspace: WorkspaceRef, fromDay: number): Promise<DailyModelUsage[]> {
    return this.byDay.all(workspace.platform, workspace.workspaceId, fromDay);
  }

  async userTokensSince(workspace: WorkspaceRef, userId: string, since: number): Promise<number> {
    return this.userTokens.get(userId, since, workspace.platform, workspace.workspaceId) ?? 0;
  }

  async activeWorkspaces(fromDay: number): Promise<WorkspaceRef[]> {
    return this.active.all(fromDay);
  }
}

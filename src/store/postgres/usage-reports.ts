import type pg from "pg";
import { postgresPlaceholder as p } from "../audit-sql.js";
import type { FeedbackRow } from "../feedback-store.js";
import type { WorkspaceRef } from "../types.js";
import { activeWorkspacesQuery, usageDailyQuery, usageGroupedQuery, usageTotalQuery, usageVotesQuery, userTokensQuery } from "../usage-report-sql.js";
import { MAX_MODELS, type DailyModelUsage, type UsageFigures, type UsageReportStore, type UsageRow, type UsageSummary } from "../usage-report-store.js";

/** Usage reports from the daily rollup, and a user's tokens since a time from the turns (see UsageReportStore). */
export class PostgresUsageReports implements UsageReportStore {
  constructor(private readonly pool: pg.Pool) {}

  async summary(workspace: WorkspaceRef, fromDay: number, top: number): Promise<UsageSummary> {
    const args = [workspace.platform, workspace.workspaceId, fromDay];
    const [total, byUser, byChannel, byModel, byKind, votesByModel, votesByChannel] = await Promise.all([
      this.pool.query<UsageFigures>(usageTotalQuery(p), args),
      this.pool.query<UsageRow>(usageGroupedQuery("user_id", p), [...args, top]),
      this.pool.query<UsageRow>(usageGroupedQuery("channel_id", p), [...args, top]),
      this.pool.query<UsageRow>(usageGroupedQuery("model", p), [...args, MAX_MODELS]),
      this.pool.query<UsageRow>(usageGroupedQuery("kind", p), [...args, MAX_MODELS]),
      this.pool.query<FeedbackRow>(usageVotesQuery("model", p), [...args, MAX_MODELS]),
      this.pool.query<FeedbackRow>(usageVotesQuery("channel", p), [...args, top]),
    ]);
    return {
      total: total.rows[0]!,
      byUser: byUser.rows,
      byChannel: byChannel.rows,
      byModel: byModel.rows,
      byKind: byKind.rows,
      feedback: { byModel: votesByModel.rows, byChannel: votesByChannel.rows },
    };
  }

  async daily(workspace: WorkspaceRef, fromDay: number): Promise<DailyModelUsage[]> {
    const { rows } = await this.pool.query<DailyModelUsage>(usageDailyQuery(p), [workspace.platform, workspace.workspaceId, fromDay]);
    return rows;
  }

  async userTokensSince(workspace: WorkspaceRef, userId: string, since: number): Promise<number> {
    const { rows } = await this.pool.query<{ tokens: number }>(userTokensQuery(p), [userId, since, workspace.platform, workspace.workspaceId]);
    return rows[0]?.tokens ?? 0;
  }

  async activeWorkspaces(fromDay: number): Promise<WorkspaceRef[]> {
    const { rows } = await this.pool.query<WorkspaceRef>(activeWorkspacesQuery(p), [fromDay]);
    return rows;
  }
}

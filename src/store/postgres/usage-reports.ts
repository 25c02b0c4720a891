import type pg from "pg";
import type { FeedbackRow } from "../feedback-store.js";
import type { WorkspaceRef } from "../types.js";
import { MAX_MODELS, type UsageFigures, type UsageReportStore, type UsageRow, type UsageSummary } from "../usage-report-store.js";

const FIGURES = `COUNT(*)::int AS turns, COALESCE(SUM(t.prompt_tokens), 0)::bigint AS "promptTokens", COALESCE(SUM(t.completion_tokens), 0)::bigint AS "completionTokens"`;
const IN_WORKSPACE = `FROM turns t JOIN conversations c ON c.id = t.conversation_id WHERE c.platform = $1 AND c.workspace_id = $2 AND t.started_at >= $3`;
/** `only`: a condition on the turns counted (people's turns alone, for the users). */
const grouped = (key: string, only = "") =>
  `SELECT ${key} AS key, ${FIGURES} ${IN_WORKSPACE} ${only} GROUP BY 1
   ORDER BY COALESCE(SUM(t.prompt_tokens), 0) + COALESCE(SUM(t.completion_tokens), 0) DESC, COUNT(*) DESC, 1 LIMIT $4`;

/** Summary calls (kind 'summary') are no person's: the users' figures count turns alone. */
const PEOPLE_ONLY = "AND t.kind = 'turn'";

/** Votes on the workspace's turns since then, grouped by `key` (the same keys as the figures'). */
const votes = (key: string) =>
  `SELECT ${key} AS key, COUNT(*) FILTER (WHERE f.vote = 'up')::int AS up, COUNT(*) FILTER (WHERE f.vote = 'down')::int AS down
   FROM turn_feedback f JOIN turns t ON t.id = f.turn_id JOIN conversations c ON c.id = t.conversation_id
   WHERE f.platform = $1 AND f.workspace_id = $2 AND t.started_at >= $3 GROUP BY 1 ORDER BY COUNT(*) DESC, 1 LIMIT $4`;

/** Usage reports and the per-user daily budget, from the turns table. */
export class PostgresUsageReports implements UsageReportStore {
  constructor(private readonly pool: pg.Pool) {}

  async summary(workspace: WorkspaceRef, since: number, top: number): Promise<UsageSummary> {
    const args = [workspace.platform, workspace.workspaceId, since];
    const [total, byUser, byChannel, byModel, byKind, votesByModel, votesByChannel] = await Promise.all([
      this.pool.query<UsageFigures>(`SELECT ${FIGURES} ${IN_WORKSPACE}`, args),
      this.pool.query<UsageRow>(grouped("t.user_id", PEOPLE_ONLY), [...args, top]),
      // A thread's turns count for its channel; turns from before channels were recorded, for their conversation's.
      this.pool.query<UsageRow>(grouped("COALESCE(t.channel_id, c.channel_id)"), [...args, top]),
      this.pool.query<UsageRow>(grouped("COALESCE(t.model, '')"), [...args, MAX_MODELS]),
      this.pool.query<UsageRow>(grouped("t.kind"), [...args, MAX_MODELS]),
      this.pool.query<FeedbackRow>(votes("COALESCE(t.model, '')"), [...args, MAX_MODELS]),
      this.pool.query<FeedbackRow>(votes("COALESCE(t.channel_id, c.channel_id)"), [...args, top]),
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

  async userTokensSince(workspace: WorkspaceRef, userId: string, since: number): Promise<number> {
    const { rows } = await this.pool.query<{ tokens: number }>(
      `SELECT COALESCE(SUM(t.total_tokens), 0)::bigint AS tokens FROM turns t JOIN conversations c ON c.id = t.conversation_id
       WHERE t.user_id = $1 AND t.started_at >= $2 AND c.platform = $3 AND c.workspace_id = $4`,
      [userId, since, workspace.platform, workspace.workspaceId],
    );
    return rows[0]?.tokens ?? 0;
  }

  async activeWorkspaces(since: number): Promise<WorkspaceRef[]> {
    const { rows } = await this.pool.query<WorkspaceRef>(
      `SELECT DISTINCT c.platform, c.workspace_id AS "workspaceId" FROM turns t JOIN conversations c ON c.id = t.conversation_id
       WHERE t.started_at >= $1 ORDER BY 1, 2`,
      [since],
    );
    return rows;
  }
}

import type pg from "pg";
import type { ActivityCounts, ApprovalRow, AuditStore, FeedbackView, SettingsChange, TurnDetail, TurnFilter, TurnRow } from "../audit-store.js";
import {
  activityQuery,
  approvalRow,
  approvalsQuery,
  changesSinceQuery,
  channelsQuery,
  exchangeOf,
  exchangeQuery,
  postgresPlaceholder as p,
  settingsVersionQuery,
  stepRow,
  modelCallRow,
  modelCallsQuery,
  stepsQuery,
  turnApprovalsQuery,
  turnDetailRow,
  turnFeedbackQuery,
  turnQuery,
  turnRow,
  turnsQuery,
  workspacesQuery,
  type Query,
} from "../audit-sql.js";
import type { WorkspaceRef } from "../types.js";

type Row = Record<string, unknown>;

/** The console's reads of the audit trail (see AuditStore). */
export class PostgresAuditReads implements AuditStore {
  constructor(private readonly pool: pg.Pool) {}

  private async all(query: Query): Promise<Row[]> {
    return (await this.pool.query<Row>(query.text, query.values)).rows;
  }

  async turns(filter: TurnFilter): Promise<TurnRow[]> {
    return (await this.all(turnsQuery(filter, p))).map(turnRow);
  }

  async turn(id: string): Promise<TurnDetail | undefined> {
    const [[row], messages, steps, approvals, calls, feedback] = await Promise.all([
      this.all(turnQuery(id, p)),
      this.all({ text: exchangeQuery(p), values: [id] }),
      this.all({ text: stepsQuery(p), values: [id] }),
      this.all({ text: turnApprovalsQuery(p), values: [id] }),
      this.all({ text: modelCallsQuery(p), values: [id] }),
      this.all({ text: turnFeedbackQuery(p), values: [id] }),
    ]);
    if (!row) return undefined;
    return {
      ...turnDetailRow(row),
      ...exchangeOf(messages as { role: string; text: string }[]),
      steps: steps.map(stepRow),
      approvals: approvals.map(approvalRow),
      modelCalls: calls.map(modelCallRow),
      feedback: feedback as unknown as FeedbackView[],
    };
  }

  async approvals(workspace: WorkspaceRef | undefined, pending: boolean, limit: number): Promise<ApprovalRow[]> {
    return (await this.all(approvalsQuery(workspace, pending, limit, p))).map(approvalRow);
  }

  async activity(failedSince: number): Promise<ActivityCounts> {
    return (await this.all({ text: activityQuery(p), values: [failedSince] }))[0] as unknown as ActivityCounts;
  }

  async workspaces(limit: number): Promise<WorkspaceRef[]> {
    return (await this.all({ text: workspacesQuery(p), values: [limit] })) as unknown as WorkspaceRef[];
  }

  async channels(workspace: WorkspaceRef, limit: number): Promise<string[]> {
    return (await this.all({ text: channelsQuery(p), values: [workspace.platform, workspace.workspaceId, limit] })).map((row) => String(row.channelId));
  }

  async settingsVersion(workspace: WorkspaceRef): Promise<number> {
    return Number((await this.all({ text: settingsVersionQuery(p), values: [workspace.platform, workspace.workspaceId] }))[0]?.version ?? 0);
  }

  async changesSince(workspace: WorkspaceRef, version: number, limit: number): Promise<SettingsChange[]> {
    return (await this.all({ text: changesSinceQuery(p), values: [workspace.platform, workspace.workspaceId, version, limit] })) as unknown as SettingsChange[];
  }

  async sizeBytes(): Promise<number> {
    return Number((await this.all({ text: "SELECT pg_database_size(current_database()) AS size", values: [] }))[0]?.size ?? 0);
  }
}

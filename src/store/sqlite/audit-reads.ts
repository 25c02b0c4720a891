import type { Statement } from "better-sqlite3";
import type { ActivityCounts, AuditStore, FeedbackView, SettingsChange, TurnDetail, TurnFilter, TurnRow, ApprovalRow } from "../audit-store.js";
import {
  activityQuery,
  approvalRow,
  approvalsQuery,
  changesSinceQuery,
  channelsQuery,
  exchangeOf,
  exchangeQuery,
  settingsVersionQuery,
  sqlitePlaceholder as p,
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
import type { Db } from "./database.js";

type Row = Record<string, unknown>;

/** The console's reads of the audit trail (see AuditStore). */
export class SqliteAuditReads implements AuditStore {
  /** The filtered lists' statements, by their text: a few shapes, each prepared once. */
  private readonly prepared = new Map<string, Statement<unknown[], Row>>();

  constructor(private readonly db: Db) {}

  private all(query: Query): Row[] {
    let statement = this.prepared.get(query.text);
    if (!statement) {
      statement = this.db.prepare<unknown[], Row>(query.text);
      if (this.prepared.size < 200) this.prepared.set(query.text, statement);
    }
    return statement.all(...query.values);
  }

  async turns(filter: TurnFilter): Promise<TurnRow[]> {
    return this.all(turnsQuery(filter, p)).map(turnRow);
  }

  async turn(id: string): Promise<TurnDetail | undefined> {
    const [row] = this.all(turnQuery(id, p));
    if (!row) return undefined;
    const messages = this.all({ text: exchangeQuery(p), values: [id] }) as { role: string; text: string }[];
    return {
      ...turnDetailRow(row),
      ...exchangeOf(messages),
      steps: this.all({ text: stepsQuery(p), values: [id] }).map(stepRow),
      approvals: this.all({ text: turnApprovalsQuery(p), values: [id] }).map(approvalRow),
      modelCalls: this.all({ text: modelCallsQuery(p), values: [id] }).map(modelCallRow),
      feedback: this.all({ text: turnFeedbackQuery(p), values: [id] }) as unknown as FeedbackView[],
    };
  }

  async approvals(workspace: WorkspaceRef | undefined, pending: boolean, limit: number): Promise<ApprovalRow[]> {
    return this.all(approvalsQuery(workspace, pending, limit, p)).map(approvalRow);
  }

  async activity(failedSince: number): Promise<ActivityCounts> {
    return this.all({ text: activityQuery(p), values: [failedSince] })[0] as unknown as ActivityCounts;
  }

  async workspaces(limit: number): Promise<WorkspaceRef[]> {
    return this.all({ text: workspacesQuery(p), values: [limit] }) as unknown as WorkspaceRef[];
  }

  async channels(workspace: WorkspaceRef, limit: number): Promise<string[]> {
    return this.all({ text: channelsQuery(p), values: [workspace.platform, workspace.workspaceId, limit] }).map((row) => String(row.channelId));
  }

  async settingsVersion(workspace: WorkspaceRef): Promise<number> {
    return Number(this.all({ text: settingsVersionQuery(p), values: [workspace.platform, workspace.workspaceId] })[0]?.version ?? 0);
  }

  async changesSince(workspace: WorkspaceRef, version: number, limit: number): Promise<SettingsChange[]> {
    return this.all({ text: changesSinceQuery(p), values: [workspace.platform, workspace.workspaceId, version, limit] }) as unknown as SettingsChange[];
  }

  async sizeBytes(): Promise<number> {
    const pages = this.db.pragma("page_count", { simple: true }) as number;
    const size = this.db.pragma("page_size", { simple: true }) as number;
    return pages * size;
  }
}

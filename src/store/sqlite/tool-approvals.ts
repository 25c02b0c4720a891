import type { SettingsCache } from "../settings-cache.js";
import type { ApprovalSetting, ToolApprovalRepository } from "../tool-approval-repository.js";
import type { WorkspaceRef } from "../types.js";
import type { Db } from "./database.js";
import type { Audit, SettingsVersion } from "./settings-version.js";

/** Which tools need approval per workspace; cached, and invalidated through the settings version row. */
export class SqliteToolApprovals implements ToolApprovalRepository {
  private readonly selectAll;
  private readonly change: (workspace: WorkspaceRef, tool: string, required: boolean, changedBy: string) => void;

  constructor(
    db: Db,
    private readonly cache: SettingsCache<ReadonlyMap<string, ApprovalSetting>>,
    private readonly version: SettingsVersion,
    audit: Audit,
  ) {
    this.selectAll = db.prepare<[string, string], { tool: string; required: number; changedBy: string; changedAt: number }>(
      `SELECT tool, required, changed_by AS changedBy, changed_at AS changedAt FROM tool_approval_settings WHERE platform = ? AND workspace_id = ?`,
    );
    const upsert = db.prepare<[string, string, string, number, string, number]>(
      `INSERT INTO tool_approval_settings (platform, workspace_id, tool, required, changed_by, changed_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (platform, workspace_id, tool)
       DO UPDATE SET required = excluded.required, changed_by = excluded.changed_by, changed_at = excluded.changed_at`,
    );
    this.change = db.transaction((workspace: WorkspaceRef, tool: string, required: boolean, changedBy: string) => {
      const now = Date.now();
      upsert.run(workspace.platform, workspace.workspaceId, tool, required ? 1 : 0, changedBy, now);
      audit.run(workspace.platform, workspace.workspaceId, `approval:${tool}`, String(required), changedBy, now);
      version.bump();
    });
  }

  async overrides(workspace: WorkspaceRef): Promise<ReadonlyMap<string, ApprovalSetting>> {
    this.version.check();
    return this.cache.get(workspace, () => {
      const rows = this.selectAll.all(workspace.platform, workspace.workspaceId);
      return new Map(rows.map((row) => [row.tool, { required: row.required === 1, changedBy: row.changedBy, changedAt: row.changedAt }]));
    });
  }

  async set(workspace: WorkspaceRef, tool: string, required: boolean, changedBy: string): Promise<void> {
    this.change(workspace, tool, required, changedBy);
    this.version.check();
  }
}

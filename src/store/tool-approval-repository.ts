import type { Db } from "./database.js";
import type { WorkspaceRef } from "./types.js";

export interface ApprovalSetting {
  required: boolean;
  changedBy: string;
  changedAt: number;
}

const MAX_CACHED_WORKSPACES = 10_000;
const cacheKey = (workspace: WorkspaceRef) => `${workspace.platform}\u0000${workspace.workspaceId}`;

/**
 * Which tools need a person's approval before they run, as admins set it per workspace; absent
 * rows mean the tool's own default. Read on every turn, so cached per workspace and dropped on change.
 */
export class ToolApprovalRepository {
  private readonly cache = new Map<string, ReadonlyMap<string, ApprovalSetting>>();
  private readonly selectAll;
  private readonly upsert;
  private readonly audit;

  constructor(private readonly db: Db) {
    this.selectAll = db.prepare<[string, string], { tool: string; required: number; changedBy: string; changedAt: number }>(
      `SELECT tool, required, changed_by AS changedBy, changed_at AS changedAt FROM tool_approval_settings WHERE platform = ? AND workspace_id = ?`,
    );
    this.upsert = db.prepare<[string, string, string, number, string, number]>(
      `INSERT INTO tool_approval_settings (platform, workspace_id, tool, required, changed_by, changed_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (platform, workspace_id, tool)
       DO UPDATE SET required = excluded.required, changed_by = excluded.changed_by, changed_at = excluded.changed_at`,
    );
    this.audit = db.prepare<[string, string, string, string, string, number]>(
      `INSERT INTO settings_changes (platform, workspace_id, key, value_json, changed_by, changed_at) VALUES (?, ?, ?, ?, ?, ?)`,
    );
  }

  /** The workspace's overrides by tool name. */
  async overrides(workspace: WorkspaceRef): Promise<ReadonlyMap<string, ApprovalSetting>> {
    const key = cacheKey(workspace);
    const cached = this.cache.get(key);
    if (cached) return cached;
    const rows = this.selectAll.all(workspace.platform, workspace.workspaceId);
    const overrides = new Map(rows.map((row) => [row.tool, { required: row.required === 1, changedBy: row.changedBy, changedAt: row.changedAt }]));
    if (this.cache.size >= MAX_CACHED_WORKSPACES) this.cache.clear();
    this.cache.set(key, overrides);
    return overrides;
  }

  /** Sets whether a tool needs approval here, and records the change in the settings audit. */
  async set(workspace: WorkspaceRef, tool: string, required: boolean, changedBy: string): Promise<void> {
    const now = Date.now();
    this.db.transaction(() => {
      this.upsert.run(workspace.platform, workspace.workspaceId, tool, required ? 1 : 0, changedBy, now);
      this.audit.run(workspace.platform, workspace.workspaceId, `approval:${tool}`, String(required), changedBy, now);
    })();
    this.cache.delete(cacheKey(workspace));
  }
}

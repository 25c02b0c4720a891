import type { Db } from "./database.js";
import type { WorkspaceRef } from "./types.js";

export interface ToolSetting {
  tool: string;
  enabled: boolean;
  changedBy: string;
  changedAt: number;
}

/**
 * Per-workspace overrides of the default tool set; absent rows mean "use the default". Read on
 * every turn, so cached per workspace and dropped on change (see WorkspaceSettingsStore).
 */
export class ToolSettingsStore {
  private readonly cache = new Map<string, Map<string, ToolSetting>>();
  private readonly selectAll;
  private readonly upsert;
  private readonly audit;

  constructor(private readonly db: Db) {
    this.selectAll = db.prepare<[string, string], { tool: string; enabled: number; changedBy: string; changedAt: number }>(
      `SELECT tool, enabled, changed_by AS changedBy, changed_at AS changedAt
       FROM tool_settings WHERE platform = ? AND workspace_id = ?`,
    );
    this.upsert = db.prepare<[string, string, string, number, string, number]>(
      `INSERT INTO tool_settings (platform, workspace_id, tool, enabled, changed_by, changed_at)
       VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (platform, workspace_id, tool)
       DO UPDATE SET enabled = excluded.enabled, changed_by = excluded.changed_by, changed_at = excluded.changed_at`,
    );
    this.audit = db.prepare<[string, string, string, string, string, number]>(
      `INSERT INTO settings_changes (platform, workspace_id, key, value_json, changed_by, changed_at) VALUES (?, ?, ?, ?, ?, ?)`,
    );
  }

  /** The workspace's overrides by tool name; callers must not change the map. */
  overrides(workspace: WorkspaceRef): ReadonlyMap<string, ToolSetting> {
    const key = `${workspace.platform}\u0000${workspace.workspaceId}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    const rows = this.selectAll.all(workspace.platform, workspace.workspaceId);
    const overrides = new Map(rows.map((row) => [row.tool, { ...row, enabled: row.enabled === 1 }]));
    if (this.cache.size >= 10_000) this.cache.clear();
    this.cache.set(key, overrides);
    return overrides;
  }

  /** Records the change in the settings audit too. */
  set(workspace: WorkspaceRef, tool: string, enabled: boolean, changedBy: string): void {
    const now = Date.now();
    this.db.transaction(() => {
      this.upsert.run(workspace.platform, workspace.workspaceId, tool, enabled ? 1 : 0, changedBy, now);
      this.audit.run(workspace.platform, workspace.workspaceId, `tool:${tool}`, String(enabled), changedBy, now);
    })();
    this.cache.delete(`${workspace.platform}\u0000${workspace.workspaceId}`);
  }
}

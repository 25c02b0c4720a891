import type { SettingsCache } from "../settings-cache.js";
import type { ToolFlag } from "../tool-flags.js";
import type { WorkspaceRef } from "../types.js";
import type { Db } from "./database.js";
import type { Audit, SettingsVersion } from "./settings-version.js";

/** One kind of per-tool flag (see ToolFlag) per workspace; cached, and invalidated through the settings version row. */
export class SqliteToolFlags<Setting> {
  private readonly selectAll;
  private readonly change: (workspace: WorkspaceRef, tool: string, value: boolean, changedBy: string) => void;

  constructor(
    db: Db,
    private readonly flag: ToolFlag<Setting>,
    private readonly cache: SettingsCache<ReadonlyMap<string, Setting>>,
    private readonly version: SettingsVersion,
    audit: Audit,
  ) {
    const { table, column } = flag;
    this.selectAll = db.prepare<[string, string], { tool: string; value: number; changedBy: string; changedAt: number }>(
      `SELECT tool, ${column} AS value, changed_by AS changedBy, changed_at AS changedAt FROM ${table} WHERE platform = ? AND workspace_id = ?`,
    );
    const upsert = db.prepare<[string, string, string, number, string, number]>(
      `INSERT INTO ${table} (platform, workspace_id, tool, ${column}, changed_by, changed_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (platform, workspace_id, tool)
       DO UPDATE SET ${column} = excluded.${column}, changed_by = excluded.changed_by, changed_at = excluded.changed_at`,
    );
    this.change = db.transaction((workspace: WorkspaceRef, tool: string, value: boolean, changedBy: string) => {
      const now = Date.now();
      upsert.run(workspace.platform, workspace.workspaceId, tool, value ? 1 : 0, changedBy, now);
      audit.run(workspace.platform, workspace.workspaceId, `${flag.auditPrefix}:${tool}`, String(value), changedBy, now);
      version.bump();
    });
  }

  async overrides(workspace: WorkspaceRef): Promise<ReadonlyMap<string, Setting>> {
    this.version.check();
    return this.cache.get(workspace, () => {
      const rows = this.selectAll.all(workspace.platform, workspace.workspaceId);
      return new Map(rows.map((row) => [row.tool, this.flag.setting({ ...row, value: row.value === 1 })]));
    });
  }

  async set(workspace: WorkspaceRef, tool: string, value: boolean, changedBy: string): Promise<void> {
    this.change(workspace, tool, value, changedBy);
    this.version.check();
  }
}

import type { ChannelSettings } from "../channel-settings-store.js";
import type { StoredBudget } from "../budget-store.js";
import type { ApprovalSetting } from "../tool-approval-store.js";
import { SqliteChannelSettings } from "./channel-settings.js";
import { SqliteToolFlags } from "./tool-flags.js";
import { TOOL_ENABLED, TOOL_NEEDS_APPROVAL } from "../tool-flags.js";
import { SettingsVersion, type Audit } from "./settings-version.js";
import { SettingsCache } from "../settings-cache.js";
import type { ToolSetting, ToolSettingsStore, WorkspaceSettingsStore } from "../store.js";
import type { WorkspaceRef } from "../types.js";
import { storableJson } from "../turn-records.js";
import { IGNORING_WORKSPACES_READ, settingsFromRows, type WorkspaceSettingKey, type WorkspaceSettings } from "../workspace-settings.js";
import type { Db } from "./database.js";

/** Every kind of settings with their audit, cached and invalidated through the one version row. */
export function sqliteSettings(db: Db) {
  const toolCache = new SettingsCache<ReadonlyMap<string, ToolSetting>>();
  const workspaceCache = new SettingsCache<WorkspaceSettings>();
  const approvalCache = new SettingsCache<ReadonlyMap<string, ApprovalSetting>>();
  const channelCache = new SettingsCache<ChannelSettings>();
  const budgetCache = new SettingsCache<readonly StoredBudget[]>();
  const version = new SettingsVersion(db, [toolCache, workspaceCache, approvalCache, channelCache, budgetCache] as SettingsCache<unknown>[]);
  const audit = db.prepare<[string, string, string, string, string, number]>(
    `INSERT INTO settings_changes (platform, workspace_id, key, value_json, changed_by, changed_at) VALUES (?, ?, ?, ?, ?, ?)`,
  );
  return {
    tools: new SqliteToolFlags(db, TOOL_ENABLED, toolCache, version, audit) as ToolSettingsStore,
    workspaces: new SqliteWorkspaceSettings(db, workspaceCache, version, audit) as WorkspaceSettingsStore,
    toolApprovals: new SqliteToolFlags(db, TOOL_NEEDS_APPROVAL, approvalCache, version, audit),
    channels: new SqliteChannelSettings(db, channelCache, version, audit),
    /** The version row, for what changes settings outside these stores (a departed workspace's purge). */
    version,
    /** The admins' budgets, read at every turn's start and first call: cached like the settings (SqliteBudgets). */
    budgetLimits: { cache: budgetCache, version },
    /** The audit's insert, for the changes kept elsewhere (budgets) to write their entries with. */
    audit,
  };
}

class SqliteWorkspaceSettings implements WorkspaceSettingsStore {
  private readonly selectAll;
  private readonly ignoringWorkspaces;
  private readonly change: (workspace: WorkspaceRef, key: string, json: string | undefined, changedBy: string) => void;

  constructor(
    db: Db,
    private readonly cache: SettingsCache<WorkspaceSettings>,
    private readonly version: SettingsVersion,
    audit: Audit,
  ) {
    this.selectAll = db.prepare<[string, string], { key: string; valueJson: string }>(
      `SELECT key, value_json AS valueJson FROM workspace_settings WHERE platform = ? AND workspace_id = ?`,
    );
    this.ignoringWorkspaces = db
      .prepare<[string, string, number], string>(
        `SELECT workspace_id FROM workspace_settings
         WHERE platform = ? AND key = 'ignoredUsers' AND EXISTS (SELECT 1 FROM json_each(value_json) WHERE value = ?)
         ORDER BY workspace_id LIMIT ?`,
      )
      .pluck();
    const upsert = db.prepare<[string, string, string, string, string, number]>(
      `INSERT INTO workspace_settings (platform, workspace_id, key, value_json, changed_by, changed_at)
       VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (platform, workspace_id, key)
       DO UPDATE SET value_json = excluded.value_json, changed_by = excluded.changed_by, changed_at = excluded.changed_at`,
    );
    const remove = db.prepare<[string, string, string]>(`DELETE FROM workspace_settings WHERE platform = ? AND workspace_id = ? AND key = ?`);
    this.change = db.transaction((workspace: WorkspaceRef, key: string, json: string | undefined, changedBy: string) => {
      const now = Date.now();
      if (json === undefined) remove.run(workspace.platform, workspace.workspaceId, key);
      else upsert.run(workspace.platform, workspace.workspaceId, key, json, changedBy, now);
      audit.run(workspace.platform, workspace.workspaceId, key, json ?? "null", changedBy, now);
      version.bump();
    });
  }

  async get(workspace: WorkspaceRef): Promise<WorkspaceSettings> {
    this.version.check();
    return this.cache.get(workspace, () =>
      settingsFromRows(this.selectAll.all(workspace.platform, workspace.workspaceId).map((row) => ({ key: row.key, value: JSON.parse(row.valueJson) }))),
    );
  }

  async workspacesIgnoring(platform: string, userId: string): Promise<string[]> {
    return this.ignoringWorkspaces.all(platform, userId, IGNORING_WORKSPACES_READ);
  }

  async set<K extends WorkspaceSettingKey>(workspace: WorkspaceRef, key: K, value: WorkspaceSettings[K], changedBy: string): Promise<void> {
    this.change(workspace, key, value === undefined ? undefined : storableJson(value), changedBy);
    this.version.check();
  }
}

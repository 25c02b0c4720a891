import { z } from "zod";
import type { Db } from "./database.js";
import type { WorkspaceRef } from "./types.js";

/** What admins can set per workspace. Absent = the global default. */
const workspaceSettingsSchema = z.object({
  /** Channels where the bot answers; absent means every channel. */
  channels: z.array(z.string()).optional(),
  ignoredUsers: z.array(z.string()).optional(),
  ignoredRoles: z.array(z.string()).optional(),
  memoryWindow: z.number().int().positive().optional(),
  systemPrompt: z.string().optional(),
});

export type WorkspaceSettings = z.infer<typeof workspaceSettingsSchema>;
export type WorkspaceSettingKey = keyof WorkspaceSettings;

/**
 * Settings are read on every turn and changed rarely, so they are cached per workspace and the
 * cache entry dropped on every change. A workspace lives in one process (a Discord guild in one
 * shard), so no other process changes what this one cached.
 */
export class WorkspaceSettingsStore {
  private readonly cache = new Map<string, WorkspaceSettings>();
  private readonly selectAll;
  private readonly upsert;
  private readonly remove;
  private readonly audit;
  private readonly ignoredSomewhere;

  constructor(private readonly db: Db) {
    this.selectAll = db.prepare<[string, string], { key: string; valueJson: string }>(
      `SELECT key, value_json AS valueJson FROM workspace_settings WHERE platform = ? AND workspace_id = ?`,
    );
    this.upsert = db.prepare<[string, string, string, string, string, number]>(
      `INSERT INTO workspace_settings (platform, workspace_id, key, value_json, changed_by, changed_at)
       VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (platform, workspace_id, key)
       DO UPDATE SET value_json = excluded.value_json, changed_by = excluded.changed_by, changed_at = excluded.changed_at`,
    );
    this.remove = db.prepare<[string, string, string]>(
      `DELETE FROM workspace_settings WHERE platform = ? AND workspace_id = ? AND key = ?`,
    );
    this.ignoredSomewhere = db
      .prepare<[string, string], number>(
        `SELECT 1 FROM workspace_settings
         WHERE platform = ? AND key = 'ignoredUsers' AND EXISTS (SELECT 1 FROM json_each(value_json) WHERE value = ?) LIMIT 1`,
      )
      .pluck();
    this.audit = db.prepare<[string, string, string, string, string, number]>(
      `INSERT INTO settings_changes (platform, workspace_id, key, value_json, changed_by, changed_at) VALUES (?, ?, ?, ?, ?, ?)`,
    );
  }

  get(workspace: WorkspaceRef): WorkspaceSettings {
    const key = cacheKey(workspace);
    const cached = this.cache.get(key);
    if (cached) return cached;
    const rows = this.selectAll.all(workspace.platform, workspace.workspaceId);
    const raw = Object.fromEntries(rows.map((row) => [row.key, JSON.parse(row.valueJson)]));
    const parsed = workspaceSettingsSchema.safeParse(raw);
    const settings = parsed.success ? parsed.data : {};
    if (this.cache.size >= MAX_CACHED_WORKSPACES) this.cache.clear();
    this.cache.set(key, settings);
    return settings;
  }

  /** True when the admins of any workspace of the platform ignore this user (their direct messages go unanswered too). */
  isIgnoredAnywhere(platform: string, userId: string): boolean {
    return this.ignoredSomewhere.get(platform, userId) !== undefined;
  }

  /** Sets (or with `undefined`, resets to the default) one setting, and records the change. */
  set<K extends WorkspaceSettingKey>(workspace: WorkspaceRef, key: K, value: WorkspaceSettings[K], changedBy: string): void {
    const now = Date.now();
    const json = JSON.stringify(value ?? null);
    this.db.transaction(() => {
      if (value === undefined) this.remove.run(workspace.platform, workspace.workspaceId, key);
      else this.upsert.run(workspace.platform, workspace.workspaceId, key, json, changedBy, now);
      this.recordChange(workspace, key, json, changedBy, now);
    })();
    this.cache.delete(cacheKey(workspace));
  }

  recordChange(workspace: WorkspaceRef, key: string, valueJson: string, changedBy: string, at = Date.now()): void {
    this.audit.run(workspace.platform, workspace.workspaceId, key, valueJson, changedBy, at);
  }
}

const MAX_CACHED_WORKSPACES = 10_000;
const cacheKey = (workspace: WorkspaceRef) => `${workspace.platform}\u0000${workspace.workspaceId}`;

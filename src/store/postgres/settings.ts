import type pg from "pg";
import {
  channelSettingsFromRows,
  TOOL_KEY,
  type ChannelRef,
  type ChannelSettingKey,
  type ChannelSettings,
  type ChannelSettingsStore,
} from "../channel-settings-store.js";
import { type SettingsCache, workspaceKey } from "../settings-cache.js";
import type { WorkspaceSettingsStore } from "../store.js";
import type { ToolFlag, ToolFlagRow } from "../tool-flags.js";
import type { WorkspaceRef } from "../types.js";
import { storableJson } from "../turn-records.js";
import { IGNORING_WORKSPACES_READ, settingsFromRows, type WorkspaceSettingKey, type WorkspaceSettings } from "../workspace-settings.js";
import { inTransaction, type Queryable } from "./connection.js";
import { CHANNELS } from "./listener.js";

/** The audit row and the notification that makes every process drop its cached settings of the workspace (sent at commit). */
export async function recordChange(client: Queryable, workspace: WorkspaceRef, key: string, valueJson: string, changedBy: string, at: number): Promise<void> {
  await client.query(`INSERT INTO settings_changes (platform, workspace_id, key, value_json, changed_by, changed_at) VALUES ($1, $2, $3, $4, $5, $6)`, [
    workspace.platform,
    workspace.workspaceId,
    key,
    valueJson,
    changedBy,
    at,
  ]);
  await notifySettingsChanged(client, workspace);
}

/** Makes every process (this one's listener too) drop its cached settings of the workspace, once the transaction commits. */
export async function notifySettingsChanged(client: Queryable, workspace: WorkspaceRef): Promise<void> {
  await client.query(`SELECT pg_notify($1, $2)`, [CHANNELS.settings, workspaceKey(workspace)]);
}

/** One kind of per-tool flag (see ToolFlag) per workspace; cached, dropped in every process on change. */
export class PostgresToolFlags<Setting> {
  constructor(
    private readonly pool: pg.Pool,
    private readonly flag: ToolFlag<Setting>,
    readonly cache: SettingsCache<ReadonlyMap<string, Setting>>,
  ) {}

  overrides(workspace: WorkspaceRef): Promise<ReadonlyMap<string, Setting>> {
    const { table, column } = this.flag;
    return this.cache.get(workspace, async () => {
      const { rows } = await this.pool.query<ToolFlagRow>(
        `SELECT tool, ${column} AS value, changed_by AS "changedBy", changed_at AS "changedAt" FROM ${table} WHERE platform = $1 AND workspace_id = $2`,
        [workspace.platform, workspace.workspaceId],
      );
      return new Map(rows.map((row) => [row.tool, this.flag.setting(row)]));
    });
  }

  async set(workspace: WorkspaceRef, tool: string, value: boolean, changedBy: string): Promise<void> {
    const { table, column, auditPrefix } = this.flag;
    const now = Date.now();
    await inTransaction(this.pool, async (client) => {
      await client.query(
        `INSERT INTO ${table} (platform, workspace_id, tool, ${column}, changed_by, changed_at) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (platform, workspace_id, tool) DO UPDATE SET ${column} = EXCLUDED.${column}, changed_by = EXCLUDED.changed_by, changed_at = EXCLUDED.changed_at`,
        [workspace.platform, workspace.workspaceId, tool, value, changedBy, now],
      );
      await recordChange(client, workspace, `${auditPrefix}:${tool}`, String(value), changedBy, now);
    });
    this.cache.drop(workspaceKey(workspace));
  }
}

export class PostgresWorkspaceSettings implements WorkspaceSettingsStore {
  constructor(
    private readonly pool: pg.Pool,
    readonly cache: SettingsCache<WorkspaceSettings>,
  ) {}

  get(workspace: WorkspaceRef): Promise<WorkspaceSettings> {
    return this.cache.get(workspace, async () => {
      const { rows } = await this.pool.query<{ key: string; value: unknown }>(
        `SELECT key, value_json AS value FROM workspace_settings WHERE platform = $1 AND workspace_id = $2`,
        [workspace.platform, workspace.workspaceId],
      );
      return settingsFromRows(rows);
    });
  }

  async workspacesIgnoring(platform: string, userId: string): Promise<string[]> {
    const { rows } = await this.pool.query<{ workspace_id: string }>(
      `SELECT workspace_id FROM workspace_settings WHERE platform = $1 AND key = 'ignoredUsers' AND value_json ? $2 ORDER BY workspace_id LIMIT $3`,
      [platform, userId, IGNORING_WORKSPACES_READ],
    );
    return rows.map((row) => row.workspace_id);
  }

  async set<K extends WorkspaceSettingKey>(workspace: WorkspaceRef, key: K, value: WorkspaceSettings[K], changedBy: string): Promise<void> {
    const now = Date.now();
    const json = value === undefined ? undefined : storableJson(value);
    await inTransaction(this.pool, async (client) => {
      if (json === undefined) {
        await client.query(`DELETE FROM workspace_settings WHERE platform = $1 AND workspace_id = $2 AND key = $3`, [
          workspace.platform,
          workspace.workspaceId,
          key,
        ]);
      } else {
        await client.query(
          `INSERT INTO workspace_settings (platform, workspace_id, key, value_json, changed_by, changed_at) VALUES ($1, $2, $3, $4::jsonb, $5, $6)
           ON CONFLICT (platform, workspace_id, key) DO UPDATE SET value_json = EXCLUDED.value_json, changed_by = EXCLUDED.changed_by, changed_at = EXCLUDED.changed_at`,
          [workspace.platform, workspace.workspaceId, key, json, changedBy, now],
        );
      }
      await recordChange(client, workspace, key, json ?? "null", changedBy, now);
    });
    this.cache.drop(workspaceKey(workspace));
  }
}

export class PostgresChannelSettings implements ChannelSettingsStore {
  constructor(
    private readonly pool: pg.Pool,
    readonly cache: SettingsCache<ChannelSettings>,
  ) {}

  get(channel: ChannelRef): Promise<ChannelSettings> {
    return this.cache.get(
      channel,
      async () => {
        const { rows } = await this.pool.query<{ key: string; value: unknown }>(
          `SELECT key, value_json AS value FROM channel_settings WHERE platform = $1 AND workspace_id = $2 AND channel_id = $3`,
          [channel.platform, channel.workspaceId, channel.channelId],
        );
        return channelSettingsFromRows(rows);
      },
      channel.channelId,
    );
  }

  set<K extends ChannelSettingKey>(channel: ChannelRef, key: K, value: ChannelSettings[K], changedBy: string): Promise<void> {
    return this.write(channel, key, value === undefined ? undefined : storableJson(value), changedBy);
  }

  setTool(channel: ChannelRef, tool: string, enabled: boolean | undefined, changedBy: string): Promise<void> {
    return this.write(channel, `${TOOL_KEY}${tool}`, enabled === undefined ? undefined : String(enabled), changedBy);
  }

  async reset(channel: ChannelRef, changedBy: string): Promise<void> {
    await inTransaction(this.pool, async (client) => {
      await client.query(`DELETE FROM channel_settings WHERE platform = $1 AND workspace_id = $2 AND channel_id = $3`, [
        channel.platform,
        channel.workspaceId,
        channel.channelId,
      ]);
      await recordChange(client, channel, `channel:${channel.channelId}:*`, "null", changedBy, Date.now());
    });
    this.cache.drop(workspaceKey(channel));
  }

  private async write(channel: ChannelRef, key: string, json: string | undefined, changedBy: string): Promise<void> {
    const now = Date.now();
    await inTransaction(this.pool, async (client) => {
      if (json === undefined) {
        await client.query(`DELETE FROM channel_settings WHERE platform = $1 AND workspace_id = $2 AND channel_id = $3 AND key = $4`, [
          channel.platform,
          channel.workspaceId,
          channel.channelId,
          key,
        ]);
      } else {
        await client.query(
          `INSERT INTO channel_settings (platform, workspace_id, channel_id, key, value_json, changed_by, changed_at) VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7)
           ON CONFLICT (platform, workspace_id, channel_id, key) DO UPDATE SET value_json = EXCLUDED.value_json, changed_by = EXCLUDED.changed_by, changed_at = EXCLUDED.changed_at`,
          [channel.platform, channel.workspaceId, channel.channelId, key, json, changedBy, now],
        );
      }
      await recordChange(client, channel, `channel:${channel.channelId}:${key}`, json ?? "null", changedBy, now);
    });
    this.cache.drop(workspaceKey(channel));
  }
}

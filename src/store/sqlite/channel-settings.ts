import {
  channelSettingsFromRows,
  TOOL_KEY,
  type ChannelRef,
  type ChannelSettingKey,
  type ChannelSettings,
  type ChannelSettingsStore,
} from "../channel-settings-store.js";
import type { SettingsCache } from "../settings-cache.js";
import { storableJson } from "../turn-records.js";
import type { Db } from "./database.js";
import type { Audit, SettingsVersion } from "./settings-version.js";

/** Per-channel overrides, cached per channel and invalidated through the settings version row. */
export class SqliteChannelSettings implements ChannelSettingsStore {
  private readonly selectAll;
  private readonly write: (channel: ChannelRef, key: string, json: string | undefined, changedBy: string) => void;
  private readonly removeAll: (channel: ChannelRef, changedBy: string) => void;

  constructor(
    db: Db,
    private readonly cache: SettingsCache<ChannelSettings>,
    private readonly version: SettingsVersion,
    audit: Audit,
  ) {
    this.selectAll = db.prepare<[string, string, string], { key: string; valueJson: string }>(
      `SELECT key, value_json AS valueJson FROM channel_settings WHERE platform = ? AND workspace_id = ? AND channel_id = ?`,
    );
    const upsert = db.prepare<[string, string, string, string, string, string, number]>(
      `INSERT INTO channel_settings (platform, workspace_id, channel_id, key, value_json, changed_by, changed_at) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (platform, workspace_id, channel_id, key)
       DO UPDATE SET value_json = excluded.value_json, changed_by = excluded.changed_by, changed_at = excluded.changed_at`,
    );
    const remove = db.prepare<[string, string, string, string]>(
      `DELETE FROM channel_settings WHERE platform = ? AND workspace_id = ? AND channel_id = ? AND key = ?`,
    );
    const removeChannel = db.prepare<[string, string, string]>(`DELETE FROM channel_settings WHERE platform = ? AND workspace_id = ? AND channel_id = ?`);
    this.write = db.transaction((channel: ChannelRef, key: string, json: string | undefined, changedBy: string) => {
      const now = Date.now();
      if (json === undefined) remove.run(channel.platform, channel.workspaceId, channel.channelId, key);
      else upsert.run(channel.platform, channel.workspaceId, channel.channelId, key, json, changedBy, now);
      audit.run(channel.platform, channel.workspaceId, `channel:${channel.channelId}:${key}`, json ?? "null", changedBy, now);
      version.bump();
    });
    this.removeAll = db.transaction((channel: ChannelRef, changedBy: string) => {
      removeChannel.run(channel.platform, channel.workspaceId, channel.channelId);
      audit.run(channel.platform, channel.workspaceId, `channel:${channel.channelId}:*`, "null", changedBy, Date.now());
      version.bump();
    });
  }

  async get(channel: ChannelRef): Promise<ChannelSettings> {
    this.version.check();
    return this.cache.get(
      channel,
      () =>
        channelSettingsFromRows(
          this.selectAll.all(channel.platform, channel.workspaceId, channel.channelId).map((row) => ({ key: row.key, value: JSON.parse(row.valueJson) })),
        ),
      channel.channelId,
    );
  }

  async set<K extends ChannelSettingKey>(channel: ChannelRef, key: K, value: ChannelSettings[K], changedBy: string): Promise<void> {
    this.write(channel, key, value === undefined ? undefined : storableJson(value), changedBy);
    this.version.check();
  }

  async setTool(channel: ChannelRef, tool: string, enabled: boolean | undefined, changedBy: string): Promise<void> {
    this.write(channel, `${TOOL_KEY}${tool}`, enabled === undefined ? undefined : String(enabled), changedBy);
    this.version.check();
  }

  async reset(channel: ChannelRef, changedBy: string): Promise<void> {
    this.removeAll(channel, changedBy);
    this.version.check();
  }
}

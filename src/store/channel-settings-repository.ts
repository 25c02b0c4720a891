import { z } from "zod";
import type { Db } from "./database.js";
import type { WorkspaceRef } from "./types.js";

/** A channel of a workspace; a thread's settings are its channel's. */
export interface ChannelRef extends WorkspaceRef {
  channelId: string;
}

/** What admins can set per channel. Absent = the workspace's setting (or the default). */
const channelSettingsSchema = z.object({
  /** Tools switched on or off in this channel, by name; "off" wins over the workspace's "on". */
  tools: z.record(z.string(), z.boolean()).optional(),
  prompt: z.string().optional(),
  memoryWindow: z.number().int().positive().optional(),
  model: z.string().optional(),
});

export type ChannelSettings = z.infer<typeof channelSettingsSchema>;
export type ChannelSettingKey = "prompt" | "memoryWindow" | "model";

const TOOL_KEY = "tool:";
const MAX_CACHED_CHANNELS = 10_000;
const cacheKey = (channel: ChannelRef) => `${channel.platform}\u0000${channel.workspaceId}\u0000${channel.channelId}`;

/**
 * Per-channel overrides of the workspace's settings, read on every turn: cached per channel and
 * dropped on change. Every change is recorded in the settings audit as `channel:ID:KEY`.
 */
export class ChannelSettingsRepository {
  private readonly cache = new Map<string, ChannelSettings>();
  private readonly selectAll;
  private readonly upsert;
  private readonly remove;
  private readonly removeAll;
  private readonly audit;

  constructor(private readonly db: Db) {
    this.selectAll = db.prepare<[string, string, string], { key: string; valueJson: string }>(
      `SELECT key, value_json AS valueJson FROM channel_settings WHERE platform = ? AND workspace_id = ? AND channel_id = ?`,
    );
    this.upsert = db.prepare<[string, string, string, string, string, string, number]>(
      `INSERT INTO channel_settings (platform, workspace_id, channel_id, key, value_json, changed_by, changed_at) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (platform, workspace_id, channel_id, key)
       DO UPDATE SET value_json = excluded.value_json, changed_by = excluded.changed_by, changed_at = excluded.changed_at`,
    );
    this.remove = db.prepare<[string, string, string, string]>(
      `DELETE FROM channel_settings WHERE platform = ? AND workspace_id = ? AND channel_id = ? AND key = ?`,
    );
    this.removeAll = db.prepare<[string, string, string]>(`DELETE FROM channel_settings WHERE platform = ? AND workspace_id = ? AND channel_id = ?`);
    this.audit = db.prepare<[string, string, string, string, string, number]>(
      `INSERT INTO settings_changes (platform, workspace_id, key, value_json, changed_by, changed_at) VALUES (?, ?, ?, ?, ?, ?)`,
    );
  }

  async get(channel: ChannelRef): Promise<ChannelSettings> {
    const key = cacheKey(channel);
    const cached = this.cache.get(key);
    if (cached) return cached;
    const settings: Record<string, unknown> = {};
    const tools: Record<string, unknown> = {};
    for (const row of this.selectAll.all(channel.platform, channel.workspaceId, channel.channelId)) {
      if (row.key.startsWith(TOOL_KEY)) tools[row.key.slice(TOOL_KEY.length)] = JSON.parse(row.valueJson);
      else settings[row.key] = JSON.parse(row.valueJson);
    }
    if (Object.keys(tools).length > 0) settings.tools = tools;
    const parsed = channelSettingsSchema.safeParse(settings);
    const result = parsed.success ? parsed.data : {};
    if (this.cache.size >= MAX_CACHED_CHANNELS) this.cache.clear();
    this.cache.set(key, result);
    return result;
  }

  /** Sets (or with `undefined`, resets to the workspace's) one setting of a channel. */
  async set<K extends ChannelSettingKey>(channel: ChannelRef, key: K, value: ChannelSettings[K], changedBy: string): Promise<void> {
    this.write(channel, key, value, changedBy);
  }

  /** Switches a tool on or off in a channel, or (`undefined`) back to the workspace's choice. */
  async setTool(channel: ChannelRef, tool: string, enabled: boolean | undefined, changedBy: string): Promise<void> {
    this.write(channel, `${TOOL_KEY}${tool}`, enabled, changedBy);
  }

  /** Forgets every override of a channel. */
  async reset(channel: ChannelRef, changedBy: string): Promise<void> {
    const now = Date.now();
    this.db.transaction(() => {
      this.removeAll.run(channel.platform, channel.workspaceId, channel.channelId);
      this.audit.run(channel.platform, channel.workspaceId, `channel:${channel.channelId}:*`, "null", changedBy, now);
    })();
    this.cache.delete(cacheKey(channel));
  }

  private write(channel: ChannelRef, key: string, value: unknown, changedBy: string): void {
    const now = Date.now();
    const json = JSON.stringify(value ?? null);
    this.db.transaction(() => {
      if (value === undefined) this.remove.run(channel.platform, channel.workspaceId, channel.channelId, key);
      else this.upsert.run(channel.platform, channel.workspaceId, channel.channelId, key, json, changedBy, now);
      this.audit.run(channel.platform, channel.workspaceId, `channel:${channel.channelId}:${key}`, json, changedBy, now);
    })();
    this.cache.delete(cacheKey(channel));
  }
}

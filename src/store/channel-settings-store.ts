import { z } from "zod";
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
  /** The summary of what left the memory window (issue 24): on or off here, whatever the workspace says. */
  memorySummary: z.boolean().optional(),
  /** Every message posted in the channel that the bot receives is indexed for search_history (issue 24 §2). */
  history: z.boolean().optional(),
});

export type ChannelSettings = z.infer<typeof channelSettingsSchema>;
export type ChannelSettingKey = "prompt" | "memoryWindow" | "model" | "memorySummary" | "history";

/** The key of a tool's on/off among a channel's settings rows ("tool:NAME"). */
export const TOOL_KEY = "tool:";

/**
 * Per-channel overrides of the workspace's settings, read on every turn. Every change is recorded
 * in the settings audit as `channel:ID:KEY`, and applies in every process from its next message.
 */
export interface ChannelSettingsStore {
  get(channel: ChannelRef): Promise<ChannelSettings>;
  /** Sets (or with `undefined`, resets to the workspace's) one setting of a channel. */
  set<K extends ChannelSettingKey>(channel: ChannelRef, key: K, value: ChannelSettings[K], changedBy: string): Promise<void>;
  /** Switches a tool on or off in a channel, or (`undefined`) back to the workspace's choice. */
  setTool(channel: ChannelRef, tool: string, enabled: boolean | undefined, changedBy: string): Promise<void>;
  /** Forgets every override of a channel. */
  reset(channel: ChannelRef, changedBy: string): Promise<void>;
}

/** A channel's settings from its rows; rows of another shape are ignored as a whole. */
export function channelSettingsFromRows(rows: { key: string; value: unknown }[]): ChannelSettings {
  const settings: Record<string, unknown> = {};
  const tools: Record<string, unknown> = {};
  for (const row of rows) {
    if (row.key.startsWith(TOOL_KEY)) tools[row.key.slice(TOOL_KEY.length)] = row.value;
    else settings[row.key] = row.value;
  }
  if (Object.keys(tools).length > 0) settings.tools = tools;
  const parsed = channelSettingsSchema.safeParse(settings);
  return parsed.success ? parsed.data : {};
}

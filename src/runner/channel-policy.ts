import type { ChannelRef, ChannelSettings, ChannelSettingsStore } from "../store/channel-settings-store.js";
import type { WorkspaceSettingsStore } from "../store/store.js";
import type { WorkspaceSettings } from "../store/workspace-settings.js";
import type { Location } from "../contract/inbound.js";
import type { ToolAccess, TurnTools } from "./tool-access.js";

/** Where an effective setting comes from. */
export type SettingSource = "default" | "server" | "channel";

interface Sourced<T> {
  value: T;
  source: SettingSource;
}

export interface PolicyDefaults {
  memoryWindow: number;
  /** The largest window a server or channel setting may ask for. */
  memoryWindowMax: number;
  /** OPENAI_MODELS (or OPENAI_MODEL alone): the first is the default. */
  models: readonly string[];
  /** MEMORY_SUMMARY: off, no conversation gets a summary whatever a server or channel says. */
  memorySummary?: boolean;
}

/** The settings a turn in one channel runs with, each with where it comes from. */
export interface EffectiveSettings {
  memoryWindow: Sourced<number>;
  model: Sourced<string> & {
    /** A channel's choice that is no longer in OPENAI_MODELS (the default is used instead). */
    unavailable?: string;
  };
  /** Extra instructions: the server's, then the channel's; both apply. */
  instructions: { server?: string; channel?: string };
  /** The summary of what left the memory window: channel over server over default (on, unless MEMORY_SUMMARY=off, which wins). */
  memorySummary: Sourced<boolean>;
}

/** What a turn needs of the policy: its tools, memory window, model and extra instructions. */
export interface TurnPolicy {
  tools: TurnTools;
  memoryWindow: number;
  model: string;
  instructions?: string;
  memorySummary: boolean;
}

/** The channel whose settings apply: a thread follows its channel's (Discord threads are channels with a parent). */
export function settingsChannelOf(place: Pick<Location, "channelId" | "parentChannelId"> & { platform: string; workspaceId: string }): ChannelRef {
  return { platform: place.platform, workspaceId: place.workspaceId, channelId: place.parentChannelId ?? place.channelId };
}

/** Channel over server over default, for the memory window and the model; instructions add up. */
export function resolveSettings(defaults: PolicyDefaults, server: WorkspaceSettings, channel: ChannelSettings): EffectiveSettings {
  const cap = (window: number) => Math.min(window, defaults.memoryWindowMax);
  const memoryWindow: Sourced<number> =
    channel.memoryWindow !== undefined
      ? { value: cap(channel.memoryWindow), source: "channel" }
      : server.memoryWindow !== undefined
        ? { value: cap(server.memoryWindow), source: "server" }
        : { value: cap(defaults.memoryWindow), source: "default" };
  const fallback = defaults.models[0]!;
  const chosen = channel.model;
  const model: EffectiveSettings["model"] =
    chosen === undefined
      ? { value: fallback, source: "default" }
      : defaults.models.includes(chosen)
        ? { value: chosen, source: "channel" }
        : { value: fallback, source: "default", unavailable: chosen };
  const memorySummary: Sourced<boolean> =
    defaults.memorySummary === false
      ? { value: false, source: "default" }
      : channel.memorySummary !== undefined
        ? { value: channel.memorySummary, source: "channel" }
        : server.memorySummary !== undefined
          ? { value: server.memorySummary, source: "server" }
          : { value: true, source: "default" };
  return { memoryWindow, model, instructions: { server: server.systemPrompt, channel: channel.prompt }, memorySummary };
}

/**
 * Per-channel policy over the server's settings: reads both stores and resolves them. Tool
 * access itself is decided by ToolAccess, which reads the channel's tool switches too.
 */
export class ChannelPolicies {
  constructor(
    private readonly workspaceSettings: WorkspaceSettingsStore,
    private readonly channels: ChannelSettingsStore,
    private readonly access: ToolAccess,
    readonly defaults: PolicyDefaults,
  ) {}

  async settings(channel: ChannelRef, server?: WorkspaceSettings): Promise<EffectiveSettings> {
    const [serverSettings, channelSettings] = await Promise.all([server ?? this.workspaceSettings.get(channel), this.channels.get(channel)]);
    return resolveSettings(this.defaults, serverSettings, channelSettings);
  }

  async forTurn(channel: ChannelRef, server: WorkspaceSettings): Promise<TurnPolicy> {
    const [settings, tools] = await Promise.all([this.settings(channel, server), this.access.forTurn(channel)]);
    const instructions = [settings.instructions.server, settings.instructions.channel].filter(Boolean).join("\n\n");
    return {
      tools,
      memoryWindow: settings.memoryWindow.value,
      model: settings.model.value,
      instructions: instructions || undefined,
      memorySummary: settings.memorySummary.value,
    };
  }
}

import type { Tool } from "../tools/define-tool.js";
import type { ToolRegistry } from "../tools/registry.js";
import type { ChannelRef, ChannelSettings, ChannelSettingsStore } from "../store/channel-settings-store.js";
import type { ToolSetting, ToolSettingsStore } from "../store/store.js";
import type { ApprovalSetting, ToolApprovalStore } from "../store/tool-approval-store.js";
import type { WorkspaceRef } from "../store/types.js";
import type { ToolState } from "../contract/commands.js";

/** A tool as one channel sees it: the workspace's state, the channel's override, and approval. */
export interface ToolPolicy extends ToolState {
  /** The channel's own on/off, when it has one. */
  inChannel?: boolean;
  /** Offered to turns in this channel: on in the workspace and not off in the channel. */
  enabledHere: boolean;
  /** Each call waits for a person's approval. */
  needsApproval: boolean;
  /** "default" (the tool's own: MCP tools marked destructive) until an admin changed it here. */
  approvalSource: "default" | "admin";
}

/** The tools of one turn: the only ones the model is offered, and those that need approval first. */
export interface TurnTools {
  tools: Tool[];
  needApproval: ReadonlySet<string>;
}

/** What decides a channel's tools, as the stores return it (the same objects while nothing changes). */
interface PolicyInputs {
  overrides: ReadonlyMap<string, ToolSetting>;
  approvals: ReadonlyMap<string, ApprovalSetting>;
  channelSettings: ChannelSettings;
}

interface TurnToolsFrom {
  overrides: PolicyInputs["overrides"];
  approvals: PolicyInputs["approvals"];
  registrySize: number;
  tools: TurnTools;
}

export interface ToolAccessStores {
  settings: ToolSettingsStore;
  approvals: ToolApprovalStore;
  channels: ChannelSettingsStore;
}

/**
 * The one place that decides which tools a turn may use, and which of them need approval:
 * DEFAULT_TOOLS, overridden per workspace by admins, then per channel, where "off" wins and "on"
 * cannot enable what the workspace has off. "all" in DEFAULT_TOOLS means every built-in tool;
 * plugin and MCP tools are only on by default when named.
 */
export class ToolAccess {
  private readonly settings: ToolSettingsStore;
  /** A turn's tools by the channel settings they were worked out from (see forTurn). */
  private readonly turnTools = new WeakMap<ChannelSettings, TurnToolsFrom>();

  constructor(
    private readonly registry: ToolRegistry,
    private readonly stores: ToolAccessStores,
    private readonly defaults: "all" | readonly string[],
  ) {
    this.settings = stores.settings;
  }

  /** The workspace's tools and whether each is on there. */
  async states(workspace: WorkspaceRef): Promise<ToolState[]> {
    return this.statesFrom(await this.settings.overrides(workspace));
  }

  private statesFrom(overrides: ReadonlyMap<string, ToolSetting>): ToolState[] {
    return this.registry.list().map((tool) => {
      const override = overrides.get(tool.name);
      return {
        name: tool.name,
        description: tool.description,
        origin: tool.origin,
        ...(tool.example ? { example: tool.example } : {}),
        enabled: override ? override.enabled : this.enabledByDefault(tool),
        source: override ? "admin" : "default",
        changedBy: override?.changedBy,
        changedAt: override?.changedAt,
      };
    });
  }

  /** Every tool as a turn in this channel (or a thread of it) sees it. */
  async policies(channel: ChannelRef): Promise<ToolPolicy[]> {
    return this.policiesFrom(await this.inputs(channel));
  }

  /**
   * The tools offered to the model for a turn in this channel; a call to any other is refused.
   * Worked out once while the channel's settings stay the same: the stores return the same cached
   * objects until a setting changes, and the registry only ever grows.
   */
  async forTurn(channel: ChannelRef): Promise<TurnTools> {
    const inputs = await this.inputs(channel);
    const known = this.turnTools.get(inputs.channelSettings);
    if (known && known.overrides === inputs.overrides && known.approvals === inputs.approvals && known.registrySize === this.registry.size) return known.tools;
    const allowed = this.policiesFrom(inputs).filter((policy) => policy.enabledHere);
    const tools: TurnTools = {
      tools: allowed.flatMap((policy) => this.registry.get(policy.name) ?? []),
      needApproval: new Set(allowed.filter((policy) => policy.needsApproval).map((policy) => policy.name)),
    };
    this.turnTools.set(inputs.channelSettings, { overrides: inputs.overrides, approvals: inputs.approvals, registrySize: this.registry.size, tools });
    return tools;
  }

  private async inputs(channel: ChannelRef): Promise<PolicyInputs> {
    const [overrides, approvals, channelSettings] = await Promise.all([
      this.settings.overrides(channel),
      this.stores.approvals.overrides(channel),
      this.stores.channels.get(channel),
    ]);
    return { overrides, approvals, channelSettings };
  }

  private policiesFrom({ overrides, approvals, channelSettings }: PolicyInputs): ToolPolicy[] {
    return this.statesFrom(overrides).map((state) => {
      const inChannel = channelSettings.tools?.[state.name];
      const approval = approvals.get(state.name);
      return {
        ...state,
        inChannel,
        enabledHere: state.enabled && inChannel !== false,
        needsApproval: approval ? approval.required : this.registry.get(state.name)?.approvalByDefault === true,
        approvalSource: approval ? "admin" : "default",
      };
    });
  }

  /** The tools offered in a workspace, before any channel's override (the benchmark's floor uses it). */
  async enabledTools(workspace: WorkspaceRef): Promise<Tool[]> {
    const overrides = await this.settings.overrides(workspace);
    return this.registry.list().filter((tool) => overrides.get(tool.name)?.enabled ?? this.enabledByDefault(tool));
  }

  async setEnabled(workspace: WorkspaceRef, toolName: string, enabled: boolean, changedBy: string): Promise<void> {
    await this.settings.set(workspace, toolName, enabled, changedBy);
  }

  setApprovalRequired(workspace: WorkspaceRef, toolName: string, required: boolean, changedBy: string): Promise<void> {
    return this.stores.approvals.set(workspace, toolName, required, changedBy);
  }

  /** A channel's on/off for a tool; `undefined` follows the workspace again. */
  setInChannel(channel: ChannelRef, toolName: string, enabled: boolean | undefined, changedBy: string): Promise<void> {
    return this.stores.channels.setTool(channel, toolName, enabled, changedBy);
  }

  hasTool(name: string): boolean {
    return this.registry.has(name);
  }

  toolNames(): string[] {
    return this.registry.names();
  }

  private enabledByDefault(tool: Tool): boolean {
    if (this.defaults === "all") return tool.origin === "builtin";
    return this.defaults.includes(tool.name);
  }
}

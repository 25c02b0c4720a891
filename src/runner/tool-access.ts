import type { Tool, ToolOrigin } from "../tools/define-tool.js";
import type { ToolRegistry } from "../tools/registry.js";
import type { ToolSettingsStore } from "../store/store.js";
import type { WorkspaceRef } from "../store/types.js";

export interface ToolState {
  name: string;
  description: string;
  origin: ToolOrigin;
  enabled: boolean;
  /** "default" until an admin changed it in this workspace. */
  source: "default" | "admin";
  changedBy?: string;
  changedAt?: number;
}

/**
 * The one place that decides which tools a workspace may use: DEFAULT_TOOLS, overridden per
 * workspace by admins. "all" in DEFAULT_TOOLS means every built-in tool; plugin and MCP
 * tools are only on by default when named.
 */
export class ToolAccess {
  constructor(
    private readonly registry: ToolRegistry,
    private readonly settings: ToolSettingsStore,
    private readonly defaults: "all" | readonly string[],
  ) {}

  async states(workspace: WorkspaceRef): Promise<ToolState[]> {
    const overrides = await this.settings.overrides(workspace);
    return this.registry.list().map((tool) => {
      const override = overrides.get(tool.name);
      return {
        name: tool.name,
        description: tool.description,
        origin: tool.origin,
        enabled: override ? override.enabled : this.enabledByDefault(tool),
        source: override ? "admin" : "default",
        changedBy: override?.changedBy,
        changedAt: override?.changedAt,
      };
    });
  }

  /** The tools offered to the model for a turn in this workspace; a call to any other is refused. */
  async enabledTools(workspace: WorkspaceRef): Promise<Tool[]> {
    const overrides = await this.settings.overrides(workspace);
    return this.registry.list().filter((tool) => overrides.get(tool.name)?.enabled ?? this.enabledByDefault(tool));
  }

  async setEnabled(workspace: WorkspaceRef, toolName: string, enabled: boolean, changedBy: string): Promise<void> {
    await this.settings.set(workspace, toolName, enabled, changedBy);
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

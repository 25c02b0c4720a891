import type { WorkspaceRef } from "./types.js";

export interface ApprovalSetting {
  required: boolean;
  changedBy: string;
  changedAt: number;
}

/**
 * Which tools need a person's approval before they run, as admins set it per workspace; absent
 * means the tool's own default. Read on every turn; a change applies in every process from its next message.
 */
export interface ToolApprovalStore {
  /** The workspace's overrides by tool name. */
  overrides(workspace: WorkspaceRef): Promise<ReadonlyMap<string, ApprovalSetting>>;
  /** Sets whether a tool needs approval here, and records the change in the settings audit. */
  set(workspace: WorkspaceRef, tool: string, required: boolean, changedBy: string): Promise<void>;
}

import type { ToolSetting } from "./store.js";
import type { ApprovalSetting } from "./tool-approval-store.js";

/** A tool's flag as both engines read it back. */
export interface ToolFlagRow {
  tool: string;
  value: boolean;
  changedBy: string;
  changedAt: number;
}

/**
 * A yes/no that admins set per tool and workspace, kept in a table of its own and in the settings
 * audit: whether a tool is on, whether it needs approval. Both engines store every such flag one
 * way; this says where and how it reads back.
 */
export interface ToolFlag<Setting> {
  table: "tool_settings" | "tool_approval_settings";
  column: "enabled" | "required";
  /** The audit's key is the prefix and the tool ("tool:calculator"). */
  auditPrefix: "tool" | "approval";
  setting(row: ToolFlagRow): Setting;
}

export const TOOL_ENABLED: ToolFlag<ToolSetting> = {
  table: "tool_settings",
  column: "enabled",
  auditPrefix: "tool",
  setting: ({ tool, value, changedBy, changedAt }) => ({ tool, enabled: value, changedBy, changedAt }),
};

export const TOOL_NEEDS_APPROVAL: ToolFlag<ApprovalSetting> = {
  table: "tool_approval_settings",
  column: "required",
  auditPrefix: "approval",
  setting: ({ value, changedBy, changedAt }) => ({ required: value, changedBy, changedAt }),
};

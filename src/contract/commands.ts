/*
 * The settings commands as platforms and the core both speak them: what a platform parsed (BotCommand),
 * who may run it (Access), what it answered (CommandResult), and the tool list the commands show
 * (ToolState). The runner's catalogue (src/runner/commands/catalog.ts) describes each command's
 * words and options; its handlers carry them out.
 */

/** The settings operations every platform offers (slash commands, terminal commands). */
export type BotCommand =
  | { kind: "tools_list" }
  | { kind: "tools_set"; tool: string; enabled: boolean }
  | { kind: "tools_approval"; tool: string; required: boolean }
  | { kind: "memory_clear" }
  | { kind: "memory_show" }
  | { kind: "usage_show" }
  | { kind: "help" }
  | SettingsCommand
  | ChannelCommand
  | ScheduleCommand
  | MemorySummaryCommand
  | BudgetCommand
  | HistoryCommand;

/**
 * Who may run a command: anyone; moderators and admins (and anyone in their own direct
 * messages); admins only. Platforms map their permissions to these roles.
 */
export type Access = "anyone" | "moderator" | "admin";

/** The top-level commands the others sit under (`/tools`, `/memory`, …). */
export type CommandGroup = "tools" | "memory" | "settings" | "usage" | "schedule";

/** Admin commands that change a workspace's settings (the caller has checked the actor is an admin). */
export type SettingsCommand =
  | { kind: "settings_show" }
  | { kind: "settings_channels"; action: "add" | "remove" | "all"; channel?: string }
  | { kind: "settings_ignore"; target: "user" | "role"; action: "add" | "remove"; id: string }
  | { kind: "settings_memory"; window: number | null }
  | { kind: "settings_prompt"; text: string | null };

/** `settings channel …`: overrides for one channel (and its threads) of what the server sets. */
export type ChannelCommand =
  | { kind: "channel_show" }
  | { kind: "channel_tool"; tool: string; state: "on" | "off" | "default" }
  | { kind: "channel_prompt"; text: string | null }
  | { kind: "channel_memory"; window: number | null }
  | { kind: "channel_model"; model: string | null }
  | { kind: "channel_reset" };

/** Scheduled tasks (issue 26) and the settings they follow. */
export type ScheduleCommand =
  | { kind: "schedule_add"; when: string; task: string }
  | { kind: "schedule_list" }
  | { kind: "schedule_task"; action: "remove" | "pause" | "resume" | "run" | "history"; id: string }
  | { kind: "settings_timezone"; zone: string | null }
  | { kind: "settings_schedules"; members: boolean };

/** The summary's switches: per workspace, and per channel over it. */
export type MemorySummaryCommand = { kind: "settings_memory_summary"; enabled: boolean } | { kind: "channel_memory_summary"; state: "on" | "off" | "default" };

/** The budget commands (admins only; the caller checked). `user` undefined: every member. */
export type BudgetCommand =
  | { kind: "settings_budget"; scope: BudgetScope; user?: string; period: BudgetPeriod; amount: string }
  /** `channel`: null clears it (admins are told by direct message); undefined means this channel. */
  | { kind: "settings_alerts_channel"; channel?: string | null };

/** Issue 24's commands: a channel's history on or off (admins), and forget-me (anyone, for themselves). */
export type HistoryCommand =
  | { kind: "channel_history"; state: "on" | "off" }
  | { kind: "channel_history"; state: "backfill"; days?: number }
  | { kind: "memory_forget_me" };

/** What a command answered, for the platform to show. */
export interface CommandResult {
  ok: boolean;
  /** Markdown; the platform renders it. */
  text: string;
  /** Set when the actor lacked the role: the platform adds which of its permissions that is. */
  denied?: Exclude<Access, "anyone">;
}

/** Whom a spending budget applies to (issue 25). */
export type BudgetScope = "workspace" | "channel" | "user";

/** A spending budget's window, in the workspace's time zone. */
export type BudgetPeriod = "day" | "month";

/** A tool as the settings commands list it in a workspace. */
export interface ToolState {
  name: string;
  description: string;
  origin: ToolOrigin;
  /** A question a person might ask that uses it (see Tool.example). */
  example?: string;
  enabled: boolean;
  /** "default" until an admin changed it in this workspace. */
  source: "default" | "admin";
  changedBy?: string;
  changedAt?: number;
}

/** Where a tool comes from: built in, a plugin file, an MCP server. */
export type ToolOrigin = "builtin" | "plugin" | "mcp";

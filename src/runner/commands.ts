import type { MemoryStore } from "../store/memory-store.js";
import type { ConversationRef } from "../store/types.js";
import type { WorkspaceSettingsStore } from "../store/workspace-settings-store.js";
import type { ToolAccess, ToolState } from "./tool-access.js";
import { WorkspaceSettingsCommands, type SettingsCommand } from "./workspace-settings-commands.js";

export { parseCommandText } from "./command-text.js";
export type { SettingsCommand };

/** The settings operations every adapter offers (slash commands, terminal commands). */
export type BotCommand =
  | { kind: "tools_list" }
  | { kind: "tools_set"; tool: string; enabled: boolean }
  | { kind: "memory_clear" }
  | { kind: "memory_show" }
  | { kind: "help" }
  | SettingsCommand;

export interface BotCommandsOptions {
  access: ToolAccess;
  memory: MemoryStore;
  workspaceSettings: WorkspaceSettingsStore;
  memoryWindow: number;
  memoryWindowMax: number;
  memoryTokenBudget: number;
}

/** Who runs a command. The flags come from the platform's own permissions, computed by the adapter. */
export interface Actor {
  userId: string;
  isAdmin: boolean;
  /** Moderators (e.g. Discord's Manage Messages) may clear memory without being admins. */
  canClearMemory?: boolean;
}

export interface CommandResult {
  ok: boolean;
  /** Markdown; adapters render it for their platform. */
  text: string;
  /** Set when the actor lacked the permission: adapters may add which platform permission is needed. */
  denied?: "admin" | "memory";
}

const PREVIEW_CHARS = 300;

export const COMMAND_HELP = [
  "`tools` lists the tools and whether they are on here.",
  "`tools enable NAME` / `tools disable NAME` switch a tool on or off (admins).",
  "`memory show` shows what I remember of this conversation; `memory clear` forgets it (admins).",
  "`settings` shows this workspace's settings; admins change them with `settings channels add|remove|all [CHANNEL]`,",
  "`settings ignore-user|unignore-user USER`, `settings ignore-role|unignore-role ROLE`, `settings memory N|default`",
  "and `settings prompt TEXT|clear`.",
].join("\n");

/** The one place that checks who may change settings. */
export class BotCommands {
  private readonly settings: WorkspaceSettingsCommands;

  constructor(private readonly options: BotCommandsOptions) {
    this.settings = new WorkspaceSettingsCommands(options.workspaceSettings, options);
  }

  execute(command: BotCommand, conversation: ConversationRef, actor: Actor): CommandResult {
    switch (command.kind) {
      case "settings_show":
        return this.settings.execute(command, conversation, actor.userId);
      case "settings_channels":
      case "settings_ignore":
      case "settings_memory":
      case "settings_prompt":
        if (!actor.isAdmin) return { ok: false, denied: "admin", text: "Only admins can change the bot's settings." };
        return this.settings.execute(command, conversation, actor.userId);
      case "help":
        return { ok: true, text: COMMAND_HELP };
      case "tools_list":
        return { ok: true, text: formatToolList(this.options.access.states(conversation)) };
      case "tools_set":
        return this.setTool(command.tool, command.enabled, conversation, actor);
      case "memory_clear":
        if (!actor.isAdmin && !actor.canClearMemory) {
          return { ok: false, denied: "memory", text: "Only admins and moderators can clear the memory." };
        }
        this.options.memory.clear(conversation);
        return { ok: true, text: "Done: I've forgotten this conversation's recent messages." };
      case "memory_show":
        return { ok: true, text: this.describeMemory(conversation) };
    }
  }

  private setTool(tool: string, enabled: boolean, workspace: ConversationRef, actor: Actor): CommandResult {
    if (!actor.isAdmin) {
      return { ok: false, denied: "admin", text: "Only admins can enable or disable tools." };
    }
    const name = tool.trim();
    const { access } = this.options;
    if (!access.hasTool(name)) {
      return { ok: false, text: `There is no tool named \`${name}\`. Known tools: ${access.toolNames().join(", ")}.` };
    }
    access.setEnabled(workspace, name, enabled, actor.userId);
    return { ok: true, text: `\`${name}\` is now ${enabled ? "enabled" : "disabled"} here.` };
  }

  private describeMemory(conversation: ConversationRef): string {
    const { memory, workspaceSettings, memoryWindow, memoryWindowMax, memoryTokenBudget } = this.options;
    const window = Math.min(workspaceSettings.get(conversation).memoryWindow ?? memoryWindow, memoryWindowMax);
    const messages = memory.window(conversation, window, memoryTokenBudget);
    if (messages.length === 0) return "I don't remember anything of this conversation yet.";
    const lines = messages.map((message) => {
      const who = message.role === "user" ? (message.author ?? "user") : "bot";
      const text = message.text.length > PREVIEW_CHARS ? `${message.text.slice(0, PREVIEW_CHARS)}…` : message.text;
      return `**${who}:** ${text.replace(/\s+/g, " ")}`;
    });
    return `I remember the last ${messages.length / 2} exchange(s) here:\n${lines.join("\n")}`;
  }
}

export function formatToolList(states: ToolState[]): string {
  const lines = states.map((state) => {
    const origin = state.origin === "builtin" ? "" : ` _(${state.origin})_`;
    const mark = state.enabled ? "✅" : "⛔";
    return `${mark} \`${state.name}\`${origin}: ${state.description.split(/(?<=\.)\s/)[0]}`;
  });
  return lines.length > 0 ? `**Tools here** (✅ on, ⛔ off):\n${lines.join("\n")}` : "No tools are installed.";
}

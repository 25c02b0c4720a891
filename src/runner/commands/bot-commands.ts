import type { ConversationStore, WorkspaceSettingsStore } from "../../store/store.js";
import type { ConversationRef } from "../../store/types.js";
import type { Role } from "../incoming.js";
import type { ToolAccess, ToolState } from "../tool-access.js";
import { accessOf, type Access, type BotCommand } from "./catalog.js";
import { WorkspaceSettingsCommands } from "./workspace-settings-commands.js";

export interface BotCommandsOptions {
  access: ToolAccess;
  memory: ConversationStore;
  workspaceSettings: WorkspaceSettingsStore;
  memoryWindow: number;
  memoryWindowMax: number;
  memoryTokenBudget: number;
}

/** Who runs a command, in the platform-free roles adapters map their permissions to. */
export interface CommandActor {
  userId: string;
  role: Role;
  /** In a direct message, its one person may clear the conversation's memory. */
  isDm?: boolean;
}

export interface CommandResult {
  ok: boolean;
  /** Markdown; the platform renders it. */
  text: string;
  /** Set when the actor lacked the role: the platform adds which of its permissions that is. */
  denied?: Exclude<Access, "anyone">;
}

const PREVIEW_CHARS = 300;

/** What a refused actor is told, by what they tried. */
function refusal(command: BotCommand): string {
  if (command.kind === "tools_set") return "Only admins can enable or disable tools.";
  if (command.kind === "memory_clear") return "Only admins and moderators can clear the memory.";
  return "Only admins can change the bot's settings.";
}

/** May this actor run commands needing `access`? The one place that decides it, on every platform. */
function mayRun(access: Access, actor: CommandActor, command?: BotCommand): boolean {
  if (access === "anyone" || actor.role === "admin") return true;
  if (access === "moderator") return actor.role === "moderator" || (actor.isDm === true && command?.kind === "memory_clear");
  return false;
}

/** Carries out the settings commands, after checking who may. */
export class BotCommands {
  private readonly settings: WorkspaceSettingsCommands;

  constructor(private readonly options: BotCommandsOptions) {
    this.settings = new WorkspaceSettingsCommands(options.workspaceSettings, options);
  }

  async execute(command: BotCommand, conversation: ConversationRef, actor: CommandActor): Promise<CommandResult> {
    const access = accessOf(command);
    if (access !== "anyone" && !mayRun(access, actor, command)) return { ok: false, denied: access, text: refusal(command) };
    switch (command.kind) {
      case "help":
        return { ok: true, text: "" };
      case "tools_list":
        return { ok: true, text: formatToolList(await this.options.access.states(conversation)) };
      case "tools_set":
        return this.setTool(command.tool, command.enabled, conversation, actor);
      case "memory_clear":
        await this.options.memory.clear(conversation);
        return { ok: true, text: "Done: I've forgotten this conversation's recent messages." };
      case "memory_show":
        return { ok: true, text: await this.describeMemory(conversation) };
      default:
        return this.settings.execute(command, conversation, actor.userId);
    }
  }

  private async setTool(tool: string, enabled: boolean, workspace: ConversationRef, actor: CommandActor): Promise<CommandResult> {
    const name = tool.trim();
    const { access } = this.options;
    if (!access.hasTool(name)) {
      return { ok: false, text: `There is no tool named \`${name}\`. Known tools: ${access.toolNames().join(", ")}.` };
    }
    await access.setEnabled(workspace, name, enabled, actor.userId);
    return { ok: true, text: `\`${name}\` is now ${enabled ? "enabled" : "disabled"} here.` };
  }

  private async describeMemory(conversation: ConversationRef): Promise<string> {
    const { memory, workspaceSettings, memoryWindow, memoryWindowMax, memoryTokenBudget } = this.options;
    const window = Math.min((await workspaceSettings.get(conversation)).memoryWindow ?? memoryWindow, memoryWindowMax);
    const messages = await memory.window(conversation, window, memoryTokenBudget);
    if (messages.length === 0) return "I don't remember anything of this conversation yet.";
    const lines = messages.map((message) => {
      const who = message.role === "user" ? (message.author ?? "user") : "bot";
      const text = message.text.length > PREVIEW_CHARS ? `${message.text.slice(0, PREVIEW_CHARS)}…` : message.text;
      return `**${who}:** ${text.replace(/\s+/g, " ")}`;
    });
    return `I remember the last ${messages.length / 2} exchange(s) here:\n${lines.join("\n")}`;
  }
}

function formatToolList(states: ToolState[]): string {
  const lines = states.map((state) => {
    const origin = state.origin === "builtin" ? "" : ` _(${state.origin})_`;
    const mark = state.enabled ? "✅" : "⛔";
    return `${mark} \`${state.name}\`${origin}: ${state.description.split(/(?<=\.)\s/)[0]}`;
  });
  return lines.length > 0 ? `**Tools here** (✅ on, ⛔ off):\n${lines.join("\n")}` : "No tools are installed.";
}

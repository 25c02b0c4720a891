import type { ChannelSettingsStore } from "../../store/channel-settings-store.js";
import type { HistoryStore } from "../../store/history-store.js";
import type { ConversationStore, WorkspaceSettingsStore } from "../../store/store.js";
import type { SummaryStore } from "../../store/summary-store.js";
import type { ConversationRef } from "../../store/types.js";
import { settingsChannelOf, type ChannelPolicies } from "../channel-policy.js";
import type { Role } from "../../contract/inbound.js";
import { MemorySummaryCommands } from "../memory-summary/summary-commands.js";
import type { ToolAccess, ToolPolicy } from "../tool-access.js";
import type { UsageReports } from "../usage-report.js";
import type { BudgetCommands } from "./budget-commands.js";
import { accessOf } from "./catalog.js";
import type { HistoryRecorder } from "../history-recorder.js";
import { ChannelSettingsCommands } from "./channel-settings-commands.js";
import type { ScheduleCommands } from "./schedule-commands.js";
import { HistoryCommands, type BackfillCommandOptions } from "./history-commands.js";
import { WorkspaceSettingsCommands } from "./workspace-settings-commands.js";
import type { Access, BotCommand, CommandResult } from "../../contract/commands.js";

export interface BotCommandsOptions {
  access: ToolAccess;
  policies: ChannelPolicies;
  memory: ConversationStore;
  workspaceSettings: WorkspaceSettingsStore;
  channelSettings: ChannelSettingsStore;
  usage: UsageReports;
  memoryTokenBudget: number;
  /** Scheduled tasks' commands; without them those commands say the scheduler is off. */
  schedules?: ScheduleCommands;
  /** Summaries of what left the windows (`/memory show`, `/memory clear`, the summary's settings). */
  summaries: SummaryStore;
  /** `settings budget …`, `settings alerts-channel`, and the budgets in `/settings show` and `/usage`. */
  budgets?: BudgetCommands;
  /** The history index (search_history) and its writer, for `settings channel history` and `memory forget-me`. */
  history?: { index: HistoryStore; recorder?: HistoryRecorder; backfill?: BackfillCommandOptions };
}

/** Where a command was given: its conversation, and the channel a thread belongs to. */
export type CommandPlace = ConversationRef & { parentChannelId?: string };

/** Who runs a command, in the platform-free roles adapters map their permissions to. */
export interface CommandActor {
  userId: string;
  role: Role;
  /** In a direct message, its one person may clear the conversation's memory. */
  isDm?: boolean;
}

const PREVIEW_CHARS = 300;

/** What a refused actor is told, by what they tried. */
function refusal(command: BotCommand): string {
  if (command.kind === "tools_set") return "Only admins can enable or disable tools.";
  if (command.kind === "tools_approval") return "Only admins can decide which tools need approval.";
  if (command.kind === "memory_clear") return "Only admins and moderators can clear the memory.";
  if (command.kind === "usage_show") return "Only admins can see the usage.";
  return "Only admins can change the bot's settings.";
}

/** May this actor run commands needing `access`? The one place that decides it, on every platform. */
function mayRun(access: Access, actor: CommandActor, command?: BotCommand): boolean {
  if (access === "anyone" || actor.role === "admin") return true;
  if (access === "moderator") return actor.role === "moderator" || (actor.isDm === true && command?.kind === "memory_clear");
  return false;
}

/** The commands' rule for one command and actor, for what runs them by another way (the operator's console). */
export const mayRunCommand = (command: BotCommand, actor: CommandActor): boolean => mayRun(accessOf(command), actor, command);

/** Carries out the settings commands, after checking who may. */
export class BotCommands {
  private readonly settings: WorkspaceSettingsCommands;
  private readonly channel: ChannelSettingsCommands;
  private readonly summaries: MemorySummaryCommands;
  private readonly history?: HistoryCommands;

  constructor(private readonly options: BotCommandsOptions) {
    const { memoryWindow, memoryWindowMax } = options.policies.defaults;
    this.settings = new WorkspaceSettingsCommands(options.workspaceSettings, { memoryWindow, memoryWindowMax });
    this.channel = new ChannelSettingsCommands(options.policies, options.access, options.channelSettings, this.settings);
    this.summaries = new MemorySummaryCommands({
      memory: options.memory,
      summaries: options.summaries,
      workspaceSettings: options.workspaceSettings,
      channelSettings: options.channelSettings,
      enabled: options.policies.defaults.memorySummary !== false,
    });
    if (options.history) this.history = new HistoryCommands(options.channelSettings, options.history.index, options.history.recorder, options.history.backfill);
  }

  async execute(command: BotCommand, where: CommandPlace, actor: CommandActor): Promise<CommandResult> {
    const access = accessOf(command);
    if (access !== "anyone" && !mayRun(access, actor, command)) return { ok: false, denied: access, text: refusal(command) };
    const channel = settingsChannelOf(where);
    switch (command.kind) {
      case "help":
        return { ok: true, text: "" };
      case "tools_list":
        return { ok: true, text: formatToolList(await this.options.access.policies(channel)) };
      case "tools_set":
        return this.setTool(command.tool, command.enabled, where, actor);
      case "tools_approval":
        return this.setApproval(command.tool, command.required, where, actor);
      case "memory_clear":
        await this.summaries.clear(where);
        return { ok: true, text: "Done: I've forgotten this conversation's recent messages, its summary and its identifier index." };
      case "memory_show":
        return { ok: true, text: await this.describeMemory(where) };
      case "usage_show":
        return { ok: true, text: await this.withBudgets(await this.options.usage.describe(where), where, actor) };
      case "schedule_add":
      case "schedule_list":
      case "schedule_task":
      case "settings_timezone":
      case "settings_schedules":
        return this.options.schedules ? this.options.schedules.execute(command, where, actor) : { ok: false, text: "Scheduled tasks are off in this process." };
      case "settings_memory_summary":
      case "channel_memory_summary":
        return this.summaries.execute(command, where, channel, actor.userId);
      case "settings_budget":
      case "settings_alerts_channel":
        return this.options.budgets ? this.options.budgets.execute(command, where, actor.userId) : { ok: false, text: "Budgets are not available here." };
      case "settings_show": {
        const shown = await this.channel.execute(command, channel, actor.userId);
        return { ...shown, text: await this.withBudgets(shown.text, where, actor) };
      }
      case "channel_show":
      case "channel_tool":
      case "channel_prompt":
      case "channel_memory":
      case "channel_model":
      case "channel_reset":
        return this.channel.execute(command, channel, actor.userId);
      case "channel_history":
      case "memory_forget_me":
        return this.history ? this.history.execute(command, channel, actor.userId) : { ok: false, text: "There is no history index here." };
      default:
        return this.settings.execute(command, where, actor.userId);
    }
  }

  private async withBudgets(text: string, where: CommandPlace, actor: CommandActor): Promise<string> {
    return this.options.budgets ? `${text}\n\n${await this.options.budgets.describe(where, actor.userId)}` : text;
  }

  private unknownTool(name: string): CommandResult | undefined {
    const { access } = this.options;
    if (access.hasTool(name)) return undefined;
    return { ok: false, text: `There is no tool named \`${name}\`. Known tools: ${access.toolNames().join(", ")}.` };
  }

  private async setTool(tool: string, enabled: boolean, workspace: ConversationRef, actor: CommandActor): Promise<CommandResult> {
    const name = tool.trim();
    const unknown = this.unknownTool(name);
    if (unknown) return unknown;
    await this.options.access.setEnabled(workspace, name, enabled, actor.userId);
    return { ok: true, text: `\`${name}\` is now ${enabled ? "enabled" : "disabled"} here.` };
  }

  private async setApproval(tool: string, required: boolean, workspace: ConversationRef, actor: CommandActor): Promise<CommandResult> {
    const name = tool.trim();
    const unknown = this.unknownTool(name);
    if (unknown) return unknown;
    await this.options.access.setApprovalRequired(workspace, name, required, actor.userId);
    return {
      ok: true,
      text: required ? `Each call of \`${name}\` here now waits for a person's approval before it runs.` : `\`${name}\` now runs here without asking first.`,
    };
  }

  private async describeMemory(where: CommandPlace): Promise<string> {
    const { memory, policies, memoryTokenBudget } = this.options;
    const window = (await policies.settings(settingsChannelOf(where))).memoryWindow.value;
    const [messages, summary] = await Promise.all([memory.window(where, window, memoryTokenBudget), this.summaries.describe(where, window)]);
    if (messages.length === 0) return summary ? `${summary}\n\nNo recent exchange is in the window.` : "I don't remember anything of this conversation yet.";
    const lines = messages.map((message) => {
      const who = message.role === "user" ? (message.author ?? "user") : "bot";
      const text = message.text.length > PREVIEW_CHARS ? `${message.text.slice(0, PREVIEW_CHARS)}…` : message.text;
      return `**${who}:** ${text.replace(/\s+/g, " ")}`;
    });
    const recent = `I remember the last ${messages.length / 2} exchange(s) here:\n${lines.join("\n")}`;
    return summary ? `${summary}\n\n${recent}` : recent;
  }
}

function formatToolList(tools: ToolPolicy[]): string {
  const lines = tools.map((tool) => {
    const origin = tool.origin === "builtin" ? "" : ` _(${tool.origin})_`;
    const mark = tool.enabledHere ? "✅" : "⛔";
    const notes = [tool.enabled && tool.inChannel === false ? "off in this channel" : undefined, tool.needsApproval ? "needs approval" : undefined].filter(
      Boolean,
    );
    return `${mark} \`${tool.name}\`${origin}: ${tool.description.split(/(?<=\.)\s/)[0]}${notes.length > 0 ? ` _(${notes.join("; ")})_` : ""}`;
  });
  return lines.length > 0 ? `**Tools here** (✅ on, ⛔ off):\n${lines.join("\n")}` : "No tools are installed.";
}

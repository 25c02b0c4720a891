import { formatAmount } from "../../config/budget-amount.js";
import type { ToolPolicy } from "../../runner/tool-access.js";
import type { ChannelRef } from "../../store/channel-settings-store.js";
import type { WorkspaceRef } from "../../store/types.js";
import type { PageContext } from "../context.js";
import type { BotCommand } from "../../contract/commands.js";

/** The settings a form shows, as the form's fields spell them ("" for "not set here"). */
export interface SettingsValues {
  tools: ToolPolicy[];
  prompt: string;
  memoryWindow: string;
  memorySummary: string;
  /** Channel only. */
  model: string;
  history: string;
  budgetDay: string;
  budgetMonth: string;
}

const onOff = (value: boolean | undefined, unset: string) => (value === undefined ? unset : value ? "on" : "off");

/** What is set now at the form's level (the workspace, or one channel): what the commands would show. */
export async function currentValues(context: PageContext, ws: WorkspaceRef, channelId: string | undefined): Promise<SettingsValues> {
  const { services } = context;
  const channel: ChannelRef = { ...ws, channelId: channelId ?? "" };
  const [tools, server, own, limits] = await Promise.all([
    services.access.policies(channel),
    services.store.workspaceSettings.get(ws),
    channelId ? services.store.channelSettings.get(channel) : Promise.resolve(undefined),
    services.store.budgets.limits(ws),
  ]);
  const budget = (period: "day" | "month") => {
    const row = limits.find(
      (limit) => limit.period === period && (channelId ? limit.scope === "channel" && limit.subject === channelId : limit.scope === "workspace"),
    );
    return row ? formatAmount(row) : "";
  };
  return {
    tools,
    prompt: (own ? own.prompt : server.systemPrompt) ?? "",
    memoryWindow: String((own ? own.memoryWindow : server.memoryWindow) ?? ""),
    memorySummary: own ? onOff(own.memorySummary, "default") : onOff(server.memorySummary, "on"),
    model: own?.model ?? "",
    history: onOff(own?.history, "off"),
    budgetDay: budget("day"),
    budgetMonth: budget("month"),
  };
}

const toolState = (tool: ToolPolicy, inChannel: boolean) => (inChannel ? onOff(tool.inChannel, "default") : tool.enabled ? "on" : "off");
export const toolStateOf = toolState;

/**
 * The commands that turn the current values into the posted ones, one for each field that
 * differs: the same commands, validation and audit entries as the slash commands.
 */
export function commandsFor(current: SettingsValues, form: URLSearchParams, inChannel: boolean): BotCommand[] {
  const commands: BotCommand[] = [];
  const field = (name: string) => form.get(name);
  const changed = (name: string, now: string) => field(name) !== null && field(name)!.trim() !== now.trim();
  for (const tool of current.tools) {
    const state = field(`tool:${tool.name}`);
    if (state !== null && state !== toolState(tool, inChannel)) {
      if (inChannel) commands.push({ kind: "channel_tool", tool: tool.name, state: state === "on" ? "on" : state === "off" ? "off" : "default" });
      else commands.push({ kind: "tools_set", tool: tool.name, enabled: state === "on" });
    }
    const approval = field(`approval:${tool.name}`);
    if (!inChannel && approval !== null && (approval === "yes") !== tool.needsApproval) {
      commands.push({ kind: "tools_approval", tool: tool.name, required: approval === "yes" });
    }
  }
  if (changed("prompt", current.prompt)) {
    const text = field("prompt")!.trim() || null;
    commands.push(inChannel ? { kind: "channel_prompt", text } : { kind: "settings_prompt", text });
  }
  if (changed("memoryWindow", current.memoryWindow)) {
    const value = field("memoryWindow")!.trim();
    const window = value === "" ? null : Number(value);
    commands.push(inChannel ? { kind: "channel_memory", window } : { kind: "settings_memory", window });
  }
  if (changed("memorySummary", current.memorySummary)) {
    const state = field("memorySummary");
    commands.push(
      inChannel
        ? { kind: "channel_memory_summary", state: state === "on" ? "on" : state === "off" ? "off" : "default" }
        : { kind: "settings_memory_summary", enabled: state !== "off" },
    );
  }
  if (inChannel && changed("model", current.model)) commands.push({ kind: "channel_model", model: field("model")!.trim() || null });
  if (inChannel && changed("history", current.history)) commands.push({ kind: "channel_history", state: field("history") === "on" ? "on" : "off" });
  for (const [name, period] of [
    ["budgetDay", "day"],
    ["budgetMonth", "month"],
  ] as const) {
    if (changed(name, current[name])) {
      commands.push({ kind: "settings_budget", scope: inChannel ? "channel" : "workspace", period, amount: field(name)!.trim() || "clear" });
    }
  }
  return commands;
}

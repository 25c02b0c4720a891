import type { ChannelCommand } from "../../contract/commands.js";
import type { ChannelRef, ChannelSettingsStore } from "../../store/channel-settings-store.js";
import type { ChannelPolicies, EffectiveSettings, SettingSource } from "../channel-policy.js";
import type { ToolAccess } from "../tool-access.js";
import { channelMention, type WorkspaceSettingsCommands } from "./workspace-settings-commands.js";

const MAX_CHANNEL_PROMPT_CHARS = 2_000;

/** Markdown for the person who gave the command. */
type Result = { ok: boolean; text: string };

const from = (source: SettingSource) => `_(${source})_`;
const code = (name: string) => `\`${name}\``;

/**
 * Carries out the channel commands (the caller has checked who may) and `settings`, which shows
 * what applies in a channel and where each setting comes from.
 */
export class ChannelSettingsCommands {
  constructor(
    private readonly policies: ChannelPolicies,
    private readonly access: ToolAccess,
    private readonly channels: ChannelSettingsStore,
    private readonly server: WorkspaceSettingsCommands,
  ) {}

  async execute(command: ChannelCommand | { kind: "settings_show" }, channel: ChannelRef, actorId: string): Promise<Result> {
    const here = channelMention(channel.channelId);
    switch (command.kind) {
      case "settings_show":
        return { ok: true, text: await this.describeEffective(channel) };
      case "channel_show":
        return { ok: true, text: await this.describeOwn(channel) };
      case "channel_tool":
        return this.setTool(channel, command.tool.trim(), command.state, actorId);
      case "channel_prompt": {
        const text = command.text?.trim();
        if (text && text.length > MAX_CHANNEL_PROMPT_CHARS) {
          return { ok: false, text: `The instructions are too long (${text.length} characters; at most ${MAX_CHANNEL_PROMPT_CHARS}).` };
        }
        await this.channels.set(channel, "prompt", text || undefined, actorId);
        return {
          ok: true,
          text: text ? `Saved: in ${here} I'll also follow these instructions from the next message on.` : `${here} has no extra instructions of its own now.`,
        };
      }
      case "channel_memory": {
        const max = this.policies.defaults.memoryWindowMax;
        if (command.window !== null && (!Number.isInteger(command.window) || command.window < 1 || command.window > max)) {
          return { ok: false, text: `The memory window must be a whole number from 1 to ${max}.` };
        }
        await this.channels.set(channel, "memoryWindow", command.window ?? undefined, actorId);
        return {
          ok: true,
          text:
            command.window === null ? `${here} follows the server's memory window again.` : `In ${here} I'll remember the last ${command.window} exchanges.`,
        };
      }
      case "channel_model": {
        const { models } = this.policies.defaults;
        if (command.model !== null && !models.includes(command.model)) {
          return { ok: false, text: `There is no model ${code(command.model)} to choose. Choices: ${models.map(code).join(", ")}.` };
        }
        await this.channels.set(channel, "model", command.model ?? undefined, actorId);
        return { ok: true, text: `In ${here} I now use ${code(command.model ?? models[0]!)}${command.model === null ? " (the default)" : ""}.` };
      }
      case "channel_reset":
        await this.channels.reset(channel, actorId);
        return { ok: true, text: `${here} has no settings of its own now: it follows the server's.` };
    }
  }

  private async setTool(channel: ChannelRef, tool: string, state: "on" | "off" | "default", actorId: string): Promise<Result> {
    if (!this.access.hasTool(tool)) return { ok: false, text: `There is no tool named ${code(tool)}. Known tools: ${this.access.toolNames().join(", ")}.` };
    await this.access.setInChannel(channel, tool, state === "default" ? undefined : state === "on", actorId);
    const here = channelMention(channel.channelId);
    const serverOn = (await this.access.states(channel)).find((candidate) => candidate.name === tool)?.enabled === true;
    if (state === "off") return { ok: true, text: `${code(tool)} is now off in ${here} and its threads.` };
    const follows = state === "default" ? `${code(tool)} follows the server's choice in ${here} again` : `${code(tool)} is on in ${here}`;
    // A channel may only narrow what the server allows.
    return {
      ok: true,
      text: serverOn ? `${follows}.` : `${follows}, but the server has it off, so it stays off until an admin enables it with \`tools enable ${tool}\`.`,
    };
  }

  private async describeOwn(channel: ChannelRef): Promise<string> {
    const own = await this.channels.get(channel);
    const here = channelMention(channel.channelId);
    const tools = Object.entries(own.tools ?? {}).map(([name, on]) => `${code(name)} ${on ? "on" : "off"}`);
    const lines = [
      tools.length > 0 ? `Tools: ${tools.join(", ")}` : undefined,
      own.prompt ? `Extra instructions: “${own.prompt}”` : undefined,
      own.memoryWindow !== undefined ? `Memory window: ${own.memoryWindow} exchanges` : undefined,
      own.model ? `Model: ${code(own.model)}` : undefined,
      own.memorySummary !== undefined ? `Summary of earlier messages: ${own.memorySummary ? "on" : "off"}` : undefined,
      own.history ? "History: every message is indexed for `search_history`" : undefined,
    ].filter(Boolean);
    if (lines.length === 0)
      return `${here} has no settings of its own: it follows the server's. Admins change that with \`settings channel tools|prompt|memory|model\`.`;
    return [`**${here}'s own settings** (its threads follow them)`, ...lines].join("\n");
  }

  /** What applies in this channel, each with where it comes from: the default, the server or the channel. */
  private async describeEffective(channel: ChannelRef): Promise<string> {
    const [settings, tools, serverLines] = await Promise.all([
      this.policies.settings(channel),
      this.access.policies(channel),
      this.server.describeServerLines(channel),
    ]);
    const off = tools
      .filter((tool) => !tool.enabledHere)
      .map((tool) => `${code(tool.name)} ${from(tool.inChannel === false && tool.enabled ? "channel" : tool.source === "admin" ? "server" : "default")}`);
    const approval = tools
      .filter((tool) => tool.needsApproval)
      .map((tool) => `${code(tool.name)} ${from(tool.approvalSource === "admin" ? "server" : "default")}`);
    return [
      `**Settings here** (${channelMention(channel.channelId)} and its threads)`,
      ...serverLines,
      `Memory window: ${settings.memoryWindow.value} exchanges ${from(settings.memoryWindow.source)}, at most ${this.policies.defaults.memoryWindowMax}`,
      modelLine(settings, this.policies.defaults.models),
      `Extra instructions: ${instructionsText(settings)}`,
      `Summary of earlier messages: ${settings.memorySummary.value ? "on" : "off"} ${from(settings.memorySummary.source)}`,
      `Tools off here: ${off.length > 0 ? off.join(", ") : "none"}`,
      `Tools that need approval: ${approval.length > 0 ? approval.join(", ") : "none"}`,
    ].join("\n");
  }
}

function modelLine(settings: EffectiveSettings, models: readonly string[]): string {
  const { model } = settings;
  const stale = model.unavailable ? ` (the channel's ${code(model.unavailable)} is no longer offered)` : "";
  const choices = models.length > 1 ? `; choices: ${models.map(code).join(", ")}` : "";
  return `Model: ${code(model.value)} ${from(model.source)}${stale}${choices}`;
}

function instructionsText({ instructions }: EffectiveSettings): string {
  const parts = [
    instructions.server ? `“${instructions.server}” ${from("server")}` : undefined,
    instructions.channel ? `“${instructions.channel}” ${from("channel")}` : undefined,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(", then ") : "none";
}

import type { SettingsCommand } from "../../contract/commands.js";
import type { WorkspaceSettingsStore } from "../../store/store.js";
import type { ConversationRef, WorkspaceRef } from "../../store/types.js";
import { DIRECT_MESSAGES_WORKSPACE } from "../../contract/inbound.js";

const MAX_WORKSPACE_PROMPT_CHARS = 2_000;

export class WorkspaceSettingsCommands {
  constructor(
    private readonly store: WorkspaceSettingsStore,
    private readonly defaults: { memoryWindow: number; memoryWindowMax: number },
  ) {}

  /** Changes a setting; `settings_show` is ChannelSettingsCommands', which shows what applies in a channel. */
  async execute(
    command: Exclude<SettingsCommand, { kind: "settings_show" }>,
    workspace: ConversationRef,
    actorId: string,
  ): Promise<{ ok: boolean; text: string }> {
    const current = await this.store.get(workspace);
    switch (command.kind) {
      case "settings_channels": {
        if (command.action === "all") {
          await this.store.set(workspace, "channels", undefined, actorId);
          return { ok: true, text: "I now answer in every channel." };
        }
        const channel = command.channel ?? workspace.channelId;
        const channels = edit(current.channels ?? [], channel, command.action);
        if (command.action === "remove" && channels.length === 0) {
          return { ok: false, text: "That would leave no channel at all. Use `settings channels all` to answer everywhere." };
        }
        await this.store.set(workspace, "channels", channels, actorId);
        return { ok: true, text: `I now answer only in: ${channels.map(channelMention).join(", ")}.` };
      }
      case "settings_ignore": {
        const key = command.target === "user" ? "ignoredUsers" : "ignoredRoles";
        const ids = edit(current[key] ?? [], command.id, command.action);
        await this.store.set(workspace, key, ids.length > 0 ? ids : undefined, actorId);
        return { ok: true, text: ignoreConfirmation(command, workspace) };
      }
      case "settings_memory": {
        if (command.window === null) {
          await this.store.set(workspace, "memoryWindow", undefined, actorId);
          return { ok: true, text: `The memory window is back to the default (${this.defaults.memoryWindow} exchanges).` };
        }
        const max = this.defaults.memoryWindowMax;
        if (!Number.isInteger(command.window) || command.window < 1 || command.window > max) {
          return { ok: false, text: `The memory window must be a whole number from 1 to ${max}.` };
        }
        await this.store.set(workspace, "memoryWindow", command.window, actorId);
        return { ok: true, text: `I'll remember the last ${command.window} exchanges of each conversation here.` };
      }
      case "settings_prompt": {
        const text = command.text?.trim();
        if (!text) {
          await this.store.set(workspace, "systemPrompt", undefined, actorId);
          return { ok: true, text: "The workspace's extra instructions are cleared." };
        }
        if (text.length > MAX_WORKSPACE_PROMPT_CHARS) {
          return { ok: false, text: `The instructions are too long (${text.length} characters; at most ${MAX_WORKSPACE_PROMPT_CHARS}).` };
        }
        await this.store.set(workspace, "systemPrompt", text, actorId);
        return { ok: true, text: "Saved: I'll follow these extra instructions here from the next message on." };
      }
    }
  }

  /** The server-wide settings that no channel overrides: where the bot answers, whom it ignores. */
  async describeServerLines(workspace: WorkspaceRef): Promise<string[]> {
    const settings = await this.store.get(workspace);
    const list = (ids: string[] | undefined, mention: (id: string) => string) => (ids && ids.length > 0 ? ids.map(mention).join(", ") : "none");
    return [
      `Channels: ${settings.channels ? settings.channels.map(channelMention).join(", ") : "all"}`,
      `Ignored users: ${list(settings.ignoredUsers, userMention)}`,
      `Ignored roles: ${list(settings.ignoredRoles, roleMention)}`,
    ];
  }
}

/**
 * Says where an ignore list applies: a workspace's in its channels and in the DMs of people who
 * share it with the bot (never beyond); the list of DMs without a workspace in every such DM.
 */
function ignoreConfirmation(command: Extract<SettingsCommand, { kind: "settings_ignore" }>, workspace: WorkspaceRef): string {
  const dms = workspace.workspaceId === DIRECT_MESSAGES_WORKSPACE;
  if (command.target === "role") {
    const role = `role ${roleMention(command.id)}`;
    return command.action === "add" ? `I'll ignore ${role} in this workspace's channels.` : `I'll listen to ${role} again in this workspace's channels.`;
  }
  const who = userMention(command.id);
  if (command.action === "remove") return dms ? `I'll listen to ${who} again in direct messages.` : `I'll listen to ${who} again in this workspace.`;
  return dms
    ? `I'll ignore ${who} in every direct message with me. Each server or workspace keeps its own list for its channels.`
    : `I'll ignore ${who} in this workspace: in its channels, and in their direct messages with me while they are a member of it. Other workspaces are not affected.`;
}

function edit(list: string[], id: string, action: "add" | "remove"): string[] {
  const without = list.filter((item) => item !== id);
  return action === "add" ? [...without, id] : without;
}

/**
 * Platform-neutral mention tokens; adapters render Markdown to their platform and never let
 * these ping anyone (allowed mentions on Discord, escaping on Slack).
 */
export const channelMention = (id: string) => `<#${id}>`;
const userMention = (id: string) => `<@${id}>`;
const roleMention = (id: string) => `\`${id}\``;

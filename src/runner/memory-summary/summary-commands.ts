import type { MemorySummaryCommand } from "../../contract/commands.js";
import type { ChannelRef, ChannelSettingsStore } from "../../store/channel-settings-store.js";
import type { ConversationStore, WorkspaceSettingsStore } from "../../store/store.js";
import type { SummaryStore } from "../../store/summary-store.js";
import type { ConversationRef } from "../../store/types.js";
import { channelMention } from "../commands/workspace-settings-commands.js";
import { describeSummary, exchangesOf } from "./summary-text.js";

export interface MemorySummaryCommandsOptions {
  memory: ConversationStore;
  summaries: SummaryStore;
  workspaceSettings: WorkspaceSettingsStore;
  channelSettings: ChannelSettingsStore;
  /** MEMORY_SUMMARY: off, the switches are kept but nothing is summarized. */
  enabled: boolean;
}

/** Exchanges `/memory show` counts as waiting for a summary, at most. */
const WAITING_COUNTED = 200;

/** The summary's commands (the caller has checked who may), and its parts of `/memory show` and `/memory clear`. */
export class MemorySummaryCommands {
  constructor(private readonly options: MemorySummaryCommandsOptions) {}

  async execute(command: MemorySummaryCommand, where: ConversationRef, channel: ChannelRef, actorId: string): Promise<{ ok: boolean; text: string }> {
    const off = this.options.enabled ? "" : " (MEMORY_SUMMARY=off turns summaries off everywhere on this bot for now.)";
    if (command.kind === "settings_memory_summary") {
      await this.options.workspaceSettings.set(where, "memorySummary", command.enabled, actorId);
      return {
        ok: true,
        text: command.enabled
          ? `I'll keep a summary of what leaves the memory window in this workspace's conversations.${off}`
          : "I'll keep no summaries in this workspace's conversations (channels set on still get them).",
      };
    }
    const here = channelMention(channel.channelId);
    await this.options.channelSettings.set(channel, "memorySummary", command.state === "default" ? undefined : command.state === "on", actorId);
    const text =
      command.state === "default"
        ? `${here} follows the server's choice for summaries again.`
        : command.state === "on"
          ? `I'll keep a summary of what leaves the memory window in ${here} and its threads.${off}`
          : `I'll keep no summary in ${here} and its threads.`;
    return { ok: true, text };
  }

  /** `/memory show`'s part about what left the window: the summary with its age, and the identifier index. */
  async describe(where: ConversationRef, window: number): Promise<string> {
    const { memory, summaries } = this.options;
    const conversation = await memory.open(where);
    const state = await summaries.get(conversation.id);
    const waiting = exchangesOf(await summaries.dropped(conversation, state.coveredTo, window * 2, WAITING_COUNTED * 2)).length;
    return describeSummary(state, waiting, Date.now());
  }

  /** `/memory clear`: the window, the summary and the identifier index, all three. */
  async clear(where: ConversationRef): Promise<void> {
    const { memory, summaries } = this.options;
    await memory.clear(where);
    const conversation = await memory.open(where);
    await summaries.reset(conversation.id, conversation.windowStart);
  }
}

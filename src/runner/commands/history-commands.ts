import type { HistoryCommand } from "../../contract/commands.js";
import type { ChannelRef, ChannelSettingsStore } from "../../store/channel-settings-store.js";
import type { HistoryStore } from "../../store/history-store.js";
import type { WorkspaceRef } from "../../store/types.js";
import type { HistoryBackfills } from "../history-backfill.js";
import type { HistoryRecorder } from "../history-recorder.js";
import { channelMention } from "./workspace-settings-commands.js";

/** What a backfill needs: the reader, and the retention it stays within (older messages would be pruned at once). */
export interface BackfillCommandOptions {
  backfills: HistoryBackfills;
  retentionDays: number;
}

type Result = { ok: boolean; text: string };

export class HistoryCommands {
  constructor(
    private readonly channels: ChannelSettingsStore,
    private readonly index: HistoryStore,
    private readonly recorder?: HistoryRecorder,
    private readonly backfill?: BackfillCommandOptions,
  ) {}

  async execute(command: HistoryCommand, channel: ChannelRef, actorId: string): Promise<Result> {
    switch (command.kind) {
      case "channel_history":
        return command.state === "backfill" ? this.startBackfill(channel, command.days, actorId) : this.setHistory(channel, command.state, actorId);
      case "memory_forget_me":
        return this.forgetMe(channel, actorId);
    }
  }

  private async setHistory(channel: ChannelRef, state: "on" | "off", actorId: string): Promise<Result> {
    const here = channelMention(channel.channelId);
    if (state === "on") {
      await this.channels.set(channel, "history", true, actorId);
      return {
        ok: true,
        text: `From now on I index every message posted in ${here} and its threads that I receive, so \`search_history\` can find it (kept for HISTORY_RETENTION_DAYS; deleted messages are removed). \`settings channel history off\` stops it and drops what was indexed.`,
      };
    }
    await this.channels.set(channel, "history", undefined, actorId);
    // Off drops the channel's index at once: messages queued before the switch are indexed first, then dropped with the rest.
    await this.recorder?.idle();
    const dropped = await this.index.dropChannel(channel);
    return {
      ok: true,
      text: `History is off in ${here}: I dropped the ${dropped} message(s) I had indexed there. Questions asked to me there stay searchable, like my memory.`,
    };
  }

  private async startBackfill(channel: ChannelRef, days: number | undefined, actorId: string): Promise<Result> {
    if (!this.backfill) return { ok: false, text: "I cannot read earlier messages here." };
    const max = this.backfill.retentionDays;
    if (days === undefined || days < 1 || days > max) return { ok: false, text: `Say how many days back to read, from 1 to ${max} (HISTORY_RETENTION_DAYS).` };
    if ((await this.channels.get(channel)).history !== true) {
      return { ok: false, text: `History is off in ${channelMention(channel.channelId)}: turn it on first (\`settings channel history on\`).` };
    }
    return this.backfill.backfills.start(channel, days, actorId);
  }

  private async forgetMe(workspace: WorkspaceRef, userId: string): Promise<Result> {
    await this.recorder?.idle();
    const forgotten = await this.index.forgetAuthor(workspace, userId);
    await this.recorder?.forgotten(forgotten);
    return {
      ok: true,
      text: `Done: I removed ${forgotten.indexed} indexed message(s) of yours and ${forgotten.exchanges} of your exchanges with me here from my search index and my memory.`,
    };
  }
}

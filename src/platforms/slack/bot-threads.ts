import type { ThreadStore } from "../../store/thread-store.js";

export const PLATFORM = "slack";

/**
 * Which conversation a follow-up in a bot thread continues. A thread the bot opened under a
 * top-level mention (or /ask) continues the channel's conversation, where that first question was
 * remembered; a thread the bot joined by a mention inside it is a conversation of its own.
 */
export type ThreadScope = "channel" | "thread";

/** Second row that marks a bot thread as continuing its channel's conversation (bot_threads has no column for it). */
const CHANNEL_SCOPED = `${PLATFORM}:channel-scope`;

/** The bot's Slack threads, in SQLite so follow-ups are answered after a restart too. */
export class BotThreads {
  constructor(private readonly threads: ThreadStore) {}

  remember(workspaceId: string, channelId: string, threadTs: string, scope: ThreadScope): void {
    this.threads.remember({ platform: PLATFORM, workspaceId, channelId, threadId: threadTs });
    if (scope === "channel") this.threads.remember({ platform: CHANNEL_SCOPED, workspaceId, channelId, threadId: threadTs });
  }

  /** The thread's scope when the bot is part of it, else undefined. */
  scopeOf(channelId: string, threadTs: string): ThreadScope | undefined {
    if (!this.threads.isBotThread(PLATFORM, channelId, threadTs)) return undefined;
    return this.threads.isBotThread(CHANNEL_SCOPED, channelId, threadTs) ? "channel" : "thread";
  }
}

import type { Db } from "./database.js";

/**
 * Which conversation a follow-up in a bot thread continues: its own ("thread") or, for Slack
 * threads of earlier versions, its channel's ("channel").
 */
export type ThreadScope = "thread" | "channel";

export interface BotThread {
  platform: string;
  workspaceId: string;
  /** The channel the thread belongs to. */
  channelId: string;
  threadId: string;
}

/** Threads the bot opened or was mentioned in: people may keep talking there without mentioning it, across restarts. */
export class ThreadStore {
  private readonly insert;
  private readonly selectScope;

  constructor(db: Db) {
    this.insert = db.prepare<[string, string, string, string, string, number]>(
      `INSERT OR IGNORE INTO bot_threads (platform, workspace_id, channel_id, thread_id, scope, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
    );
    this.selectScope = db
      .prepare<[string, string, string], ThreadScope>(`SELECT scope FROM bot_threads WHERE platform = ? AND channel_id = ? AND thread_id = ?`)
      .pluck();
  }

  remember(thread: BotThread, scope: ThreadScope = "thread"): void {
    this.insert.run(thread.platform, thread.workspaceId, thread.channelId, thread.threadId, scope, Date.now());
  }

  /** The thread's scope when it is one of the bot's, else undefined. */
  scopeOf(platform: string, channelId: string, threadId: string): ThreadScope | undefined {
    return this.selectScope.get(platform, channelId, threadId);
  }
}

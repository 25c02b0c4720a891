import type { Db } from "./database.js";

export interface BotThread {
  platform: string;
  workspaceId: string;
  channelId: string;
  threadId: string;
}

/** Threads the bot opened: people may keep talking there without mentioning it, across restarts. */
export class ThreadStore {
  private readonly insert;
  private readonly exists;

  constructor(db: Db) {
    this.insert = db.prepare<[string, string, string, string, number]>(
      `INSERT OR IGNORE INTO bot_threads (platform, workspace_id, channel_id, thread_id, created_at) VALUES (?, ?, ?, ?, ?)`,
    );
    this.exists = db.prepare<[string, string, string], number>(
      `SELECT 1 FROM bot_threads WHERE platform = ? AND channel_id = ? AND thread_id = ?`,
    ).pluck();
  }

  remember(thread: BotThread): void {
    this.insert.run(thread.platform, thread.workspaceId, thread.channelId, thread.threadId, Date.now());
  }

  isBotThread(platform: string, channelId: string, threadId: string): boolean {
    return this.exists.get(platform, channelId, threadId) !== undefined;
  }
}

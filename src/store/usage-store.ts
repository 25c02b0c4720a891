import type { Db } from "./database.js";
import type { WorkspaceRef } from "./types.js";

const utcDay = (time = Date.now()): string => new Date(time).toISOString().slice(0, 10);

/** Tokens spent per workspace per UTC day, for the daily budget. */
export class UsageStore {
  private readonly add;
  private readonly select;

  constructor(db: Db) {
    this.add = db.prepare<[string, string, string, number]>(
      `INSERT INTO token_usage_daily (platform, workspace_id, day, tokens) VALUES (?, ?, ?, ?)
       ON CONFLICT (platform, workspace_id, day) DO UPDATE SET tokens = tokens + excluded.tokens`,
    );
    this.select = db.prepare<[string, string, string], number>(
      `SELECT tokens FROM token_usage_daily WHERE platform = ? AND workspace_id = ? AND day = ?`,
    ).pluck();
  }

  /** Called inside the transaction that closes a turn. */
  addTokens(workspace: WorkspaceRef, tokens: number, time = Date.now()): void {
    if (tokens > 0) this.add.run(workspace.platform, workspace.workspaceId, utcDay(time), tokens);
  }

  tokensToday(workspace: WorkspaceRef, time = Date.now()): number {
    return this.select.get(workspace.platform, workspace.workspaceId, utcDay(time)) ?? 0;
  }
}

import type { FeedbackStore, Vote, VoteOutcome, VoteRecord } from "../feedback-store.js";
import type { Db } from "./database.js";

/** Votes on answers in SQLite: the previous vote read and the new one written in one IMMEDIATE transaction. */
export class SqliteFeedback implements FeedbackStore {
  private readonly voteTx: (record: VoteRecord & { at: number }) => VoteOutcome;

  constructor(db: Db) {
    const turnIn = db
      .prepare<[string, string, string], number>(
        `SELECT 1 FROM turns t JOIN conversations c ON c.id = t.conversation_id WHERE t.id = ? AND c.platform = ? AND c.workspace_id = ?`,
      )
      .pluck();
    const previous = db.prepare<[string, string], Vote>(`SELECT vote FROM turn_feedback WHERE turn_id = ? AND user_id = ?`).pluck();
    const upsert = db.prepare<[string, string, string, string, Vote, number]>(
      `INSERT INTO turn_feedback (turn_id, user_id, platform, workspace_id, vote, voted_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (turn_id, user_id) DO UPDATE SET vote = excluded.vote, voted_at = excluded.voted_at,
         changes = changes + (vote <> excluded.vote)`,
    );
    const tx = db.transaction((record: VoteRecord & { at: number }): VoteOutcome => {
      if (turnIn.get(record.turnId, record.platform, record.workspaceId) === undefined) return "unknown";
      const before = previous.get(record.turnId, record.userId);
      upsert.run(record.turnId, record.userId, record.platform, record.workspaceId, record.vote, record.at);
      return before === undefined ? "recorded" : before === record.vote ? "unchanged" : "changed";
    });
    this.voteTx = (record) => tx.immediate(record);
  }

  async vote(record: VoteRecord): Promise<VoteOutcome> {
    return this.voteTx({ ...record, at: record.at ?? Date.now() });
  }
}

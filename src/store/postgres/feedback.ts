import type pg from "pg";
import type { FeedbackStore, Vote, VoteOutcome, VoteRecord } from "../feedback-store.js";

/**
 * Votes on answers in PostgreSQL, in one statement: the turn checked against the press's
 * workspace, the vote inserted or changed, and the vote it replaced returned.
 */
export class PostgresFeedback implements FeedbackStore {
  constructor(private readonly pool: pg.Pool) {}

  async vote(record: VoteRecord): Promise<VoteOutcome> {
    const { rows } = await this.pool.query<{ found: boolean; previous: Vote | null }>(
      `WITH turn AS (
         SELECT t.id FROM turns t JOIN conversations c ON c.id = t.conversation_id WHERE t.id = $1 AND c.platform = $2 AND c.workspace_id = $3
       ), before AS (
         SELECT vote FROM turn_feedback WHERE turn_id = $1 AND user_id = $4
       ), written AS (
         INSERT INTO turn_feedback (turn_id, user_id, platform, workspace_id, vote, voted_at)
         SELECT id, $4, $2, $3, $5, $6 FROM turn
         ON CONFLICT (turn_id, user_id) DO UPDATE SET vote = EXCLUDED.vote, voted_at = EXCLUDED.voted_at,
           changes = turn_feedback.changes + CASE WHEN turn_feedback.vote <> EXCLUDED.vote THEN 1 ELSE 0 END
         RETURNING 1
       )
       SELECT EXISTS (SELECT 1 FROM written) AS found, (SELECT vote FROM before) AS previous`,
      [record.turnId, record.platform, record.workspaceId, record.userId, record.vote, record.at ?? Date.now()],
    );
    const row = rows[0];
    if (!row?.found) return "unknown";
    return row.previous === null ? "recorded" : row.previous === record.vote ? "unchanged" : "changed";
  }
}

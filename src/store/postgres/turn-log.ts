import type pg from "pg";
import type { TokenUsage, TurnLog } from "../store.js";
import { stepRows, storable, utcDay, type TurnClosing, type TurnStart } from "../turn-records.js";
import type { Conversation, WorkspaceRef } from "../types.js";
import { inTransaction, type Queryable } from "./connection.js";
import { openConversation } from "./conversations.js";

/** The audit trail and the daily token usage; a turn closes in one transaction. */
export class PostgresTurnLog implements TurnLog, TokenUsage {
  constructor(private readonly pool: pg.Pool) {}

  async start(turn: TurnStart): Promise<Conversation> {
    const conversation = await openConversation(this.pool, turn.conversation);
    await this.pool.query(`INSERT INTO turns (id, conversation_id, user_id, status, started_at, instance) VALUES ($1, $2, $3, 'running', $4, $5)`, [
      turn.id,
      conversation.id,
      turn.userId,
      Date.now(),
      turn.instance,
    ]);
    return conversation;
  }

  async finish(closing: TurnClosing): Promise<void> {
    const { turnId, end, exchange } = closing;
    const steps = stepRows(closing.steps);
    await inTransaction(this.pool, async (client) => {
      if (steps.length > 0) {
        await client.query(
          `INSERT INTO turn_steps (turn_id, seq, tool, input, output, error, started_at, duration_ms)
           SELECT $1, * FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[], $8::bigint[])`,
          [
            turnId,
            steps.map((s) => s.seq),
            steps.map((s) => s.tool),
            steps.map((s) => s.input),
            steps.map((s) => s.output),
            steps.map((s) => s.error),
            steps.map((s) => s.startedAt),
            steps.map((s) => s.durationMs),
          ],
        );
      }
      if (exchange) {
        const conversations = [exchange.conversationId];
        if (exchange.alsoIn) conversations.push((await openConversation(client, exchange.alsoIn)).id);
        for (const conversationId of conversations) await appendExchange(client, conversationId, turnId, exchange.question, exchange.answer);
      }
      if (end.usage.totalTokens > 0) {
        await client.query(
          `INSERT INTO token_usage_daily (platform, workspace_id, day, tokens) VALUES ($1, $2, $3, $4)
           ON CONFLICT (platform, workspace_id, day) DO UPDATE SET tokens = token_usage_daily.tokens + EXCLUDED.tokens`,
          [closing.workspace.platform, closing.workspace.workspaceId, utcDay(), end.usage.totalTokens],
        );
      }
      await client.query(
        `UPDATE turns SET status = $2, outcome = $3, ended_at = $4, duration_ms = $4 - started_at, iterations = $5,
           prompt_tokens = $6, completion_tokens = $7, total_tokens = $8, error = $9
         WHERE id = $1`,
        [turnId, end.status, end.outcome, Date.now(), end.iterations, end.usage.promptTokens, end.usage.completionTokens, end.usage.totalTokens, end.error === undefined ? null : storable(end.error)],
      );
    });
  }

  async tokensToday(workspace: WorkspaceRef, time = Date.now()): Promise<number> {
    const { rows } = await this.pool.query<{ tokens: number }>(
      `SELECT tokens FROM token_usage_daily WHERE platform = $1 AND workspace_id = $2 AND day = $3`,
      [workspace.platform, workspace.workspaceId, utcDay(time)],
    );
    return rows[0]?.tokens ?? 0;
  }
}

/** The question and the answer, in that order (their ids order the window). */
function appendExchange(client: Queryable, conversationId: number, turnId: string, question: { author: string; text: string }, answer: string) {
  const now = Date.now();
  return client.query(
    `INSERT INTO messages (conversation_id, turn_id, role, author, text, created_at)
     VALUES ($1, $2, 'user', $3, $4, $6), ($1, $2, 'assistant', NULL, $5, $6)`,
    [conversationId, turnId, storable(question.author), storable(question.text), storable(answer), now],
  );
}

import type pg from "pg";
import type { TokenUsageStore, TurnStore } from "../store.js";
import { attachmentsJson, modelCallRows, noticeTargetJson, stepRows, storable, utcDay, type TurnClosing, type TurnStart } from "../turn-records.js";
import type { Conversation, WorkspaceRef } from "../types.js";
import { addToRollup, COUNTED_ONCE, TURNS_WITH_CONVERSATIONS } from "../usage-rollup-sql.js";
import { TAKE_SEED } from "./conversations.js";

/**
 * A running turn's row, in its conversation (found or created), in one statement. Like a place in
 * line it does not wait for the disk at commit (synchronous_commit off for this transaction): a
 * server crash may lose it, and the turn then fails to close, which its user is told.
 */
const START = `
  WITH async AS (
    SELECT set_config('synchronous_commit', 'off', true)
  ), found AS (
    SELECT id, window_start, seed_turn_id FROM conversations
    WHERE platform = $1 AND workspace_id = $2 AND channel_id = $3 AND thread_id = $4
  ), ${TAKE_SEED}, created AS (
    INSERT INTO conversations (platform, workspace_id, channel_id, thread_id, created_at)
    SELECT $1, $2, $3, $4, $5 WHERE NOT EXISTS (SELECT 1 FROM found)
    ON CONFLICT (platform, workspace_id, channel_id, thread_id) DO NOTHING
    RETURNING id, window_start
  ), conversation AS (
    SELECT id, window_start FROM found UNION ALL SELECT id, window_start FROM created
  ), turn AS (
    INSERT INTO turns (id, conversation_id, user_id, status, started_at, instance, model, channel_id, notice_to)
    SELECT $6, id, $7, 'running', $5, $8, $9, $10, $12 FROM conversation, async
    RETURNING conversation_id
  ), placed AS (
    UPDATE turn_queue SET turn_id = $6 WHERE id = $11
  )
  SELECT c.id, c.window_start AS "windowStart" FROM conversation c JOIN turn t ON t.conversation_id = c.id`;

/**
 * A turn's closing, as one statement (so one transaction, in one round trip): its steps, its
 * exchange (question before answer, so their ids order the window), its model calls ($31, as JSON
 * rows: one parameter however many), the day's token usage, the usage rollup (from the row as it
 * was: still running or not), and its outcome. Waits for the disk at commit, as the server is configured to.
 *
 * A thread opened for the answer ($25-$28) gets a conversation row that points at this turn: its
 * first use copies the exchange in (TAKE_SEED). Where the row is already there (a follow-up came
 * first; the insert waits for a process creating it at the same time), the exchange goes in now.
 *
 * Safe to repeat: it writes only while the turn is not closed yet (running, or marked interrupted by
 * a reaper meanwhile), so a closing that committed but whose answer was lost with the connection,
 * then tried again, writes nothing twice. The row lock orders two attempts that overlap.
 */
const CLOSING_ROLLUP = addToRollup(TURNS_WITH_CONVERSATIONS, "t.id = $1 AND EXISTS (SELECT 1 FROM open)", {
  turns: COUNTED_ONCE,
  promptTokens: "$21::bigint",
  completionTokens: "$22::bigint",
  totalTokens: "$17::bigint",
});

const FINISH = `
  WITH open AS (
    SELECT 1 FROM turns WHERE id = $1 AND (status = 'running' OR outcome = 'interrupted') FOR UPDATE
  ), steps AS (
    INSERT INTO turn_steps (turn_id, seq, tool, input, output, error, started_at, duration_ms, approval_wait_ms)
    SELECT $1, * FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[], $8::bigint[], $30::bigint[])
    WHERE EXISTS (SELECT 1 FROM open)
  ), calls AS (
    INSERT INTO turn_model_calls (turn_id, seq, model, provider, purpose, retry, started_at, duration_ms, first_token_ms, prompt_tokens, completion_tokens, outcome, after_step)
    SELECT $1, c.seq, c.model, c.provider, c.purpose, c.retry, c."startedAt", c."durationMs", c."firstTokenMs", c."promptTokens", c."completionTokens", c.outcome,
      c."afterStep"
    FROM jsonb_to_recordset($31::jsonb) AS c(seq int, model text, provider text, purpose text, retry boolean, "startedAt" bigint, "durationMs" bigint,
      "firstTokenMs" bigint, "promptTokens" bigint, "completionTokens" bigint, outcome text, "afterStep" int)
    WHERE EXISTS (SELECT 1 FROM open)
  ), thread AS (
    INSERT INTO conversations (platform, workspace_id, channel_id, thread_id, created_at, seed_turn_id)
    SELECT $25::text, $26::text, $27::text, $28::text, $13, $1 WHERE $25::text IS NOT NULL AND EXISTS (SELECT 1 FROM open)
    ON CONFLICT (platform, workspace_id, channel_id, thread_id) DO UPDATE SET platform = EXCLUDED.platform
    RETURNING id, seed_turn_id IS NOT DISTINCT FROM $1 AS seeded
  ), exchange AS (
    INSERT INTO messages (conversation_id, turn_id, role, author, text, attachments, source_id, created_at)
    SELECT m.conversation_id, $1, m.role, m.author, m.text, m.attachments, m.source_id, $13
    FROM (
      SELECT $9::bigint AS conversation_id, e.* FROM unnest($10::text[], $11::text[], $12::text[], $24::text[], $29::text[]) WITH ORDINALITY AS e(role, author, text, attachments, source_id, position)
      UNION ALL
      SELECT thread.id, e.role, e.author, e.text, e.attachments, e.source_id, e.position + 2
      FROM thread, unnest($10::text[], $11::text[], $12::text[], $24::text[], $29::text[]) WITH ORDINALITY AS e(role, author, text, attachments, source_id, position)
      WHERE NOT thread.seeded
    ) m
    WHERE EXISTS (SELECT 1 FROM open)
    ORDER BY m.position
  ), usage AS (
    INSERT INTO token_usage_daily (platform, workspace_id, day, tokens)
    SELECT $14, $15, $16, $17::bigint WHERE $17::bigint > 0 AND EXISTS (SELECT 1 FROM open)
    ON CONFLICT (platform, workspace_id, day) DO UPDATE SET tokens = token_usage_daily.tokens + EXCLUDED.tokens
  ), rolled_channels AS (
    ${CLOSING_ROLLUP.channels}
  ), rolled_users AS (
    ${CLOSING_ROLLUP.users}
  )
  UPDATE turns SET status = $18, outcome = $19, ended_at = $13, duration_ms = $13 - started_at, iterations = $20,
    prompt_tokens = $21, completion_tokens = $22, total_tokens = $17::bigint, error = $23, trace_id = $32, link = $33
  WHERE id = $1 AND EXISTS (SELECT 1 FROM open)`;

/** The audit trail and the daily token usage; a turn closes in one statement. */
export class PostgresTurnLog implements TurnStore, TokenUsageStore {
  constructor(private readonly pool: pg.Pool) {}

  async start(turn: TurnStart): Promise<Conversation> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const { rows } = await this.pool.query<Conversation>(START, [
        turn.conversation.platform,
        turn.conversation.workspaceId,
        turn.conversation.channelId,
        turn.conversation.threadId ?? "",
        Date.now(),
        turn.id,
        turn.userId,
        turn.instance,
        turn.context?.model ?? null,
        turn.context?.channelId ?? null,
        turn.place ?? null,
        noticeTargetJson(turn.noticeTo),
      ]);
      if (rows[0]) return rows[0];
    }
    throw new Error("could not find or create the turn's conversation");
  }

  async finish(closing: TurnClosing): Promise<void> {
    const { turnId, end, exchange } = closing;
    const steps = stepRows(closing.steps);
    const messages: { role: "user" | "assistant"; author: string | null; text: string; attachments: string | null; sourceId: string | null }[] = [];
    if (exchange) {
      messages.push({
        role: "user",
        author: storable(exchange.question.author),
        text: storable(exchange.question.text),
        attachments: attachmentsJson(exchange.question.attachments),
        sourceId: exchange.question.sourceId ?? null,
      });
      messages.push({ role: "assistant", author: null, text: storable(exchange.answer), attachments: null, sourceId: null });
    }
    const thread = exchange?.alsoIn;
    const now = Date.now();
    await this.pool.query(FINISH, [
      turnId,
      steps.map((step) => step.seq),
      steps.map((step) => step.tool),
      steps.map((step) => step.input),
      steps.map((step) => step.output),
      steps.map((step) => step.error),
      steps.map((step) => step.startedAt),
      steps.map((step) => step.durationMs),
      exchange?.conversationId ?? null,
      messages.map((message) => message.role),
      messages.map((message) => message.author),
      messages.map((message) => message.text),
      now,
      closing.workspace.platform,
      closing.workspace.workspaceId,
      utcDay(now),
      end.usage.totalTokens,
      end.status,
      end.outcome,
      end.iterations,
      end.usage.promptTokens,
      end.usage.completionTokens,
      end.error === undefined ? null : storable(end.error),
      messages.map((message) => message.attachments),
      thread?.platform ?? null,
      thread?.workspaceId ?? null,
      thread?.channelId ?? null,
      thread ? (thread.threadId ?? "") : null,
      messages.map((message) => message.sourceId),
      steps.map((step) => step.approvalWaitMs),
      JSON.stringify(modelCallRows(closing.modelCalls)),
      closing.traceId ?? null,
      closing.link === undefined ? null : storable(closing.link),
    ]);
  }

  async tokensToday(workspace: WorkspaceRef, time = Date.now()): Promise<number> {
    const { rows } = await this.pool.query<{ tokens: number }>(`SELECT tokens FROM token_usage_daily WHERE platform = $1 AND workspace_id = $2 AND day = $3`, [
      workspace.platform,
      workspace.workspaceId,
      utcDay(time),
    ]);
    return rows[0]?.tokens ?? 0;
  }
}

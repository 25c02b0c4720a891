import { clampPage, type ApprovalRow, type ModelCallView, type StepRow, type TurnDetail, type TurnFilter, type TurnRow } from "./audit-store.js";
import type { WorkspaceRef } from "./types.js";

/**
 * The console's queries, written once for both engines: SQL both understand (row values, quoted
 * aliases), with parameters numbered as each engine wants them ($1 for PostgreSQL, ? for SQLite).
 */
export type Placeholder = (index: number) => string;
export const sqlitePlaceholder: Placeholder = () => "?";
export const postgresPlaceholder: Placeholder = (index) => `$${index}`;

export interface Query {
  text: string;
  values: (string | number)[];
}

/** Builds a statement's text and its values in order. */
class QueryBuilder {
  readonly values: (string | number)[] = [];
  constructor(private readonly placeholder: Placeholder) {}
  param(value: string | number): string {
    this.values.push(value);
    return this.placeholder(this.values.length);
  }
}

const TURN_COLUMNS = `t.id, c.platform, c.workspace_id AS "workspaceId", COALESCE(t.channel_id, c.channel_id) AS "channelId",
  NULLIF(c.thread_id, '') AS "threadId", t.user_id AS "userId", t.status, t.outcome, t.kind, t.model, t.started_at AS "startedAt",
  t.duration_ms AS "durationMs", t.iterations, t.prompt_tokens AS "promptTokens", t.completion_tokens AS "completionTokens", t.error`;
const FROM_TURNS = `FROM turns t JOIN conversations c ON c.id = t.conversation_id`;

/**
 * Newest first, each filter a condition on the way: through turns_by_time, or turns_by_user and
 * turns_by_channel when those are asked, stopping at the page's LIMIT. The CROSS JOIN keeps
 * SQLite's planner on the turns first (it would otherwise start from the workspace's
 * conversations and sort all of their turns); PostgreSQL reads it as the plain join it is.
 */
export function turnsQuery(filter: TurnFilter, placeholder: Placeholder): Query {
  const q = new QueryBuilder(placeholder);
  const where: string[] = ["c.id = t.conversation_id"];
  if (filter.workspace) where.push(`c.platform = ${q.param(filter.workspace.platform)} AND c.workspace_id = ${q.param(filter.workspace.workspaceId)}`);
  // The channel each turn recorded (a thread's turns their channel's), as usage reports count them.
  if (filter.channelId) where.push(`t.channel_id = ${q.param(filter.channelId)}`);
  if (filter.userId) where.push(`t.user_id = ${q.param(filter.userId)}`);
  if (filter.outcome) where.push(outcomeCondition(filter.outcome, q));
  // A scalar subquery, not EXISTS: SQLite turns an EXISTS into a join with a Bloom filter built over
  // every step (tens of ms at a million turns) before it reads the first turn; this probes the steps
  // of each turn on the way, through their (turn_id, seq) index, until the page is full.
  if (filter.tool) where.push(`(SELECT 1 FROM turn_steps s WHERE s.turn_id = t.id AND s.tool = ${q.param(filter.tool)} LIMIT 1) IS NOT NULL`);
  if (filter.from !== undefined) where.push(`t.started_at >= ${q.param(filter.from)}`);
  if (filter.to !== undefined) where.push(`t.started_at < ${q.param(filter.to)}`);
  if (filter.after) where.push(`(t.started_at, t.id) < (${q.param(filter.after.startedAt)}, ${q.param(filter.after.id)})`);
  const text = `SELECT ${TURN_COLUMNS} FROM turns t CROSS JOIN conversations c WHERE ${where.join(" AND ")} ORDER BY t.started_at DESC, t.id DESC LIMIT ${q.param(clampPage(filter.limit))}`;
  return { text, values: q.values };
}

/** The statuses turns_not_answered holds (a few of all turns). */
const NOT_ANSWERED = new Set(["failed", "interrupted"]);

/**
 * A status (the partial index's own condition written out, so both planners use it) or, for any
 * other word, the outcome (answer, timeout, llm_error…), read on the way through the turns by time.
 */
function outcomeCondition(outcome: string, q: QueryBuilder): string {
  if (NOT_ANSWERED.has(outcome)) return `t.status IN ('failed', 'interrupted') AND t.status = ${q.param(outcome)}`;
  if (outcome === "answered" || outcome === "running") return `t.status = ${q.param(outcome)}`;
  return `t.outcome = ${q.param(outcome)}`;
}

export function turnQuery(id: string, placeholder: Placeholder): Query {
  return { text: `SELECT ${TURN_COLUMNS}, t.trace_id AS "traceId", t.link ${FROM_TURNS} WHERE t.id = ${placeholder(1)}`, values: [id] };
}

/**
 * Through messages_by_time: a turn's messages are written when it closes (at its ended_at; a
 * thread's copy keeps their time), so they lie between its start and its end. No index of their
 * own on the turns' path.
 */
export const exchangeQuery = (placeholder: Placeholder): string =>
  `SELECT m.role, m.text FROM turns t JOIN messages m ON m.turn_id = t.id
     AND m.created_at >= t.started_at AND m.created_at <= COALESCE(t.ended_at, t.started_at) + 1000
   WHERE t.id = ${placeholder(1)} ORDER BY m.id LIMIT 4`;

/** A turn's steps are few (AGENT_MAX_ITERATIONS × MAX_TOOL_CALLS_PER_STEP); a cap all the same. */
export const stepsQuery = (placeholder: Placeholder): string =>
  `SELECT seq, tool, input, output, error, started_at AS "startedAt", duration_ms AS "durationMs" FROM turn_steps
   WHERE turn_id = ${placeholder(1)} ORDER BY seq LIMIT 500`;

/** A turn's model calls are few too (its iterations, side questions and retries; at most 500 are kept). */
export const modelCallsQuery = (placeholder: Placeholder): string =>
  `SELECT seq, model, provider, purpose, retry, outcome, started_at AS "startedAt", duration_ms AS "durationMs", first_token_ms AS "firstTokenMs",
     prompt_tokens AS "promptTokens", completion_tokens AS "completionTokens", after_step AS "afterStep"
   FROM turn_model_calls WHERE turn_id = ${placeholder(1)} ORDER BY seq LIMIT 500`;

/** Through the primary key (turn_id, user_id). */
export const turnFeedbackQuery = (placeholder: Placeholder): string =>
  `SELECT user_id AS "userId", vote, voted_at AS "votedAt" FROM turn_feedback WHERE turn_id = ${placeholder(1)} ORDER BY voted_at, user_id LIMIT 100`;

const APPROVAL_COLUMNS = `id, platform, workspace_id AS "workspaceId", channel_id AS "channelId", turn_id AS "turnId", tool, args_json AS args,
  asked_by AS "askedBy", status, requested_at AS "requestedAt", decided_by AS "decidedBy", decided_at AS "decidedAt", decided_via AS "decidedVia"`;

export const turnApprovalsQuery = (placeholder: Placeholder): string =>
  `SELECT ${APPROVAL_COLUMNS} FROM approvals WHERE turn_id = ${placeholder(1)} ORDER BY requested_at, id LIMIT 100`;

export function approvalsQuery(workspace: WorkspaceRef | undefined, pending: boolean, limit: number, placeholder: Placeholder): Query {
  const q = new QueryBuilder(placeholder);
  const where = [pending ? `status = 'pending'` : `status <> 'pending'`];
  if (workspace) where.push(`platform = ${q.param(workspace.platform)} AND workspace_id = ${q.param(workspace.workspaceId)}`);
  return {
    text: `SELECT ${APPROVAL_COLUMNS} FROM approvals WHERE ${where.join(" AND ")} ORDER BY requested_at DESC, id DESC LIMIT ${q.param(clampPage(limit))}`,
    values: q.values,
  };
}

export const activityQuery = (placeholder: Placeholder): string =>
  `SELECT (SELECT COUNT(*) FROM turns WHERE status = 'running') AS running,
     (SELECT COUNT(*) FROM turn_queue WHERE started_at IS NULL) AS waiting,
     (SELECT COUNT(*) FROM turns WHERE started_at >= ${placeholder(1)} AND status = 'failed') AS failed`;

export const workspacesQuery = (placeholder: Placeholder): string =>
  `SELECT DISTINCT platform, workspace_id AS "workspaceId" FROM conversations ORDER BY 1, 2 LIMIT ${placeholder(1)}`;

export const channelsQuery = (placeholder: Placeholder): string =>
  `SELECT DISTINCT channel_id AS "channelId" FROM conversations WHERE platform = ${placeholder(1)} AND workspace_id = ${placeholder(2)}
   ORDER BY 1 LIMIT ${placeholder(3)}`;

export const settingsVersionQuery = (placeholder: Placeholder): string =>
  `SELECT COALESCE(MAX(id), 0) AS version FROM settings_changes WHERE platform = ${placeholder(1)} AND workspace_id = ${placeholder(2)}`;

export const changesSinceQuery = (placeholder: Placeholder): string =>
  `SELECT id, key, value_json AS value, changed_by AS "changedBy", changed_at AS "changedAt" FROM settings_changes
   WHERE platform = ${placeholder(1)} AND workspace_id = ${placeholder(2)} AND id > ${placeholder(3)} ORDER BY id LIMIT ${placeholder(4)}`;

/** NULL columns read as absent properties, as the rest of the store's types have them. */
function withoutNulls<T>(row: Record<string, unknown>): T {
  return Object.fromEntries(Object.entries(row).filter(([, value]) => value !== null)) as T;
}

export const turnRow = (row: Record<string, unknown>) => withoutNulls<TurnRow>(row);
export const turnDetailRow = (row: Record<string, unknown>) => withoutNulls<TurnRow & Pick<TurnDetail, "traceId" | "link">>(row);
/** SQLite keeps `retry` as 0 or 1. */
export const modelCallRow = (row: Record<string, unknown>): ModelCallView => ({ ...withoutNulls<ModelCallView>(row), retry: Boolean(row.retry) });
export const stepRow = (row: Record<string, unknown>) => withoutNulls<StepRow>(row);
export const approvalRow = (row: Record<string, unknown>) => withoutNulls<ApprovalRow>(row);

/** The question and the answer among a turn's messages. */
export function exchangeOf(rows: readonly { role: string; text: string }[]): { question?: string; answer?: string } {
  return { question: rows.find((row) => row.role === "user")?.text, answer: rows.find((row) => row.role === "assistant")?.text };
}

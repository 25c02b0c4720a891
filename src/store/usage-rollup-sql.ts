/**
 * The daily usage rollup's writes, for both engines (migration 020 explains the two tables). A
 * turn is added once it has ended, to the UTC day it started on, in the transaction that ends it:
 * its close, a reaper marking it interrupted, a summary call's record. A turn closed after a reaper
 * marked it interrupted adds its tokens but is not counted twice.
 */

/** The rollup's day: UTC days since the epoch of a turn's start (a workspace's time zone can change; these days cannot). */
export const ROLLUP_DAY_MS = 86_400_000;

/** What each turn of a source adds (expressions over `t`, or parameters): by default its own row's figures. */
export interface AddedFigures {
  turns: string;
  promptTokens: string;
  completionTokens: string;
  totalTokens: string;
}

const OWN_FIGURES: AddedFigures = {
  turns: "1",
  promptTokens: "t.prompt_tokens",
  completionTokens: "t.completion_tokens",
  totalTokens: "t.total_tokens",
};

const FIGURE_COLUMNS = ["turns", "prompt_tokens", "completion_tokens", "total_tokens"];

function upsert(table: string, keys: string[], select: string): string {
  const add = FIGURE_COLUMNS.map((column) => `${column} = ${table}.${column} + excluded.${column}`).join(", ");
  return `INSERT INTO ${table} (${[...keys, ...FIGURE_COLUMNS].join(", ")}) ${select}
    GROUP BY ${keys.map((_, i) => i + 1).join(", ")}
    ON CONFLICT (${keys.join(", ")}) DO UPDATE SET ${add}`;
}

/**
 * The two statements that add the turns `t` of `from` (a FROM clause joining `conversations c`),
 * those matching `where`, to the rollup: by channel, model and kind; and by user (people's turns
 * only). The turn counts for its channel as the reports always counted it: a thread's turn
 * for its channel, one from before channels were recorded for its conversation's.
 */
export function addToRollup(from: string, where: string, figures: AddedFigures = OWN_FIGURES): { channels: string; users: string } {
  const sums = `SUM(${figures.turns}), SUM(${figures.promptTokens}), SUM(${figures.completionTokens}), SUM(${figures.totalTokens})`;
  const day = `t.started_at / ${ROLLUP_DAY_MS}`;
  return {
    channels: upsert(
      "usage_daily",
      ["platform", "workspace_id", "day", "channel_id", "model", "kind"],
      `SELECT c.platform, c.workspace_id, ${day}, COALESCE(t.channel_id, c.channel_id), COALESCE(t.model, ''), t.kind, ${sums} ${from} WHERE ${where}`,
    ),
    users: upsert(
      "usage_daily_users",
      ["platform", "workspace_id", "day", "user_id"],
      `SELECT c.platform, c.workspace_id, ${day}, t.user_id, ${sums} ${from} WHERE ${where} AND t.kind = 'turn'`,
    ),
  };
}

/**
 * The same two upserts with the row's keys and figures bound as values (`?` in the keys' order,
 * then turns, prompt, completion and total tokens), for a closing that has read its turn's keys
 * already: a plain upsert costs less than an INSERT … SELECT that joins and groups one row.
 */
export function addValuesToRollup(): { channels: string; users: string } {
  const upsertValues = (table: string, keys: string[]) => {
    const columns = [...keys, ...FIGURE_COLUMNS];
    const add = FIGURE_COLUMNS.map((column) => `${column} = ${table}.${column} + excluded.${column}`).join(", ");
    return `INSERT INTO ${table} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})
    ON CONFLICT (${keys.join(", ")}) DO UPDATE SET ${add}`;
  };
  return {
    channels: upsertValues("usage_daily", ["platform", "workspace_id", "day", "channel_id", "model", "kind"]),
    users: upsertValues("usage_daily_users", ["platform", "workspace_id", "day", "user_id"]),
  };
}

/**
 * What a closing turn's rollup rows are keyed by, read from its row and its conversation's (as
 * addToRollup's SELECT reads them), and whether it still counts as a turn (COUNTED_ONCE).
 */
export const ROLLUP_KEYS_OF_TURN = `SELECT c.platform, c.workspace_id AS workspaceId, t.started_at / ${ROLLUP_DAY_MS} AS day,
    COALESCE(t.channel_id, c.channel_id) AS channelId, COALESCE(t.model, '') AS model, t.kind, t.user_id AS userId,
    CASE WHEN t.status = 'running' THEN 1 ELSE 0 END AS counted
  FROM turns t JOIN conversations c ON c.id = t.conversation_id WHERE t.id = ?`;

/** A row of ROLLUP_KEYS_OF_TURN. */
export interface RollupKeys {
  platform: string;
  workspaceId: string;
  day: number;
  channelId: string;
  model: string;
  kind: string;
  userId: string;
  counted: number;
}

/** The usual source: the turns table with each turn's conversation. */
export const TURNS_WITH_CONVERSATIONS = "FROM turns t JOIN conversations c ON c.id = t.conversation_id";

/** A closing turn counts once: not again when a reaper already marked it interrupted (and counted it). */
export const COUNTED_ONCE = "CASE WHEN t.status = 'running' THEN 1 ELSE 0 END";

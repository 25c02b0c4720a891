import type { Placeholder } from "./audit-sql.js";
import { ROLLUP_DAY_MS } from "./usage-rollup-sql.js";

/**
 * The usage reports' queries over the daily rollup (migration 020), written once for both engines.
 * Parameters: the platform, the workspace, the first day; a group's limit last.
 */
const FIGURES = `CAST(COALESCE(SUM(turns), 0) AS BIGINT) AS turns, CAST(COALESCE(SUM(prompt_tokens), 0) AS BIGINT) AS "promptTokens",
  CAST(COALESCE(SUM(completion_tokens), 0) AS BIGINT) AS "completionTokens"`;
const BIGGEST_FIRST = "ORDER BY SUM(prompt_tokens) + SUM(completion_tokens) DESC, SUM(turns) DESC, 1";
const inWorkspace = (p: Placeholder) => `WHERE platform = ${p(1)} AND workspace_id = ${p(2)} AND day >= ${p(3)}`;

export const usageTotalQuery = (p: Placeholder): string => `SELECT ${FIGURES} FROM usage_daily ${inWorkspace(p)}`;

/** Grouped by `key`: a column of usage_daily (channel_id, model, kind), or of usage_daily_users (user_id). */
export const usageGroupedQuery = (key: "channel_id" | "model" | "kind" | "user_id", p: Placeholder): string =>
  `SELECT ${key} AS key, ${FIGURES} FROM ${key === "user_id" ? "usage_daily_users" : "usage_daily"} ${inWorkspace(p)}
   GROUP BY 1 ${BIGGEST_FIRST} LIMIT ${p(4)}`;

export const usageDailyQuery = (p: Placeholder): string =>
  `SELECT day, model, ${FIGURES} FROM usage_daily ${inWorkspace(p)} GROUP BY day, model ORDER BY day, model LIMIT 10000`;

export const activeWorkspacesQuery = (p: Placeholder): string =>
  `SELECT DISTINCT platform, workspace_id AS "workspaceId" FROM usage_daily WHERE day >= ${p(1)} ORDER BY 1, 2`;

/**
 * Votes on the workspace's turns that started from the first day on, grouped by `key` (the same
 * keys as the figures'), from the votes themselves.
 */
export const usageVotesQuery = (key: "model" | "channel", p: Placeholder): string => {
  const column = key === "model" ? "COALESCE(t.model, '')" : "COALESCE(t.channel_id, c.channel_id)";
  return `SELECT ${column} AS key, CAST(SUM(CASE WHEN f.vote = 'up' THEN 1 ELSE 0 END) AS BIGINT) AS up,
     CAST(SUM(CASE WHEN f.vote = 'down' THEN 1 ELSE 0 END) AS BIGINT) AS down
   FROM turn_feedback f JOIN turns t ON t.id = f.turn_id JOIN conversations c ON c.id = t.conversation_id
   WHERE f.platform = ${p(1)} AND f.workspace_id = ${p(2)} AND t.started_at >= CAST(${p(3)} AS BIGINT) * ${ROLLUP_DAY_MS}
   GROUP BY 1 ORDER BY COUNT(*) DESC, 1 LIMIT ${p(4)}`;
};

/** A user's tokens since a time of day (a budget's day in the workspace's time zone): from the turns. */
export const userTokensQuery = (p: Placeholder): string =>
  `SELECT CAST(COALESCE(SUM(t.total_tokens), 0) AS BIGINT) AS tokens FROM turns t JOIN conversations c ON c.id = t.conversation_id
   WHERE t.user_id = ${p(1)} AND t.started_at >= ${p(2)} AND c.platform = ${p(3)} AND c.workspace_id = ${p(4)}`;

import { HISTORY_COLUMNS } from "./history.js";
import type pg from "pg";
import { openDatabase } from "../sqlite/database.js";
import { storable } from "../turn-records.js";
import { createPool, inTransaction, type ConnectionSettings } from "./connection.js";
import { applyPostgresMigrations } from "./migrate.js";
import { POSTGRES_MIGRATIONS } from "./postgres-store.js";
import { BotError } from "../../errors.js";

/** A table copied as it is, in foreign-key order; `cast` gives a column PostgreSQL's own type. */
interface TableCopy {
  name: string;
  columns: string[];
  cast?: Record<string, string>;
  /** The column to copy in order by (and whose identity sequence continues after the copy). */
  orderBy: string;
  identity?: boolean;
  /** Columns of the table on either engine that are not copied, and why. */
  left?: Record<string, string>;
}

/**
 * Tables of either engine's schema that are not copied, and why. test/store/copy-columns.test.ts
 * fails when a migration adds a table or a column that is neither copied nor named here or in a
 * table's `left`.
 */
export const NOT_COPIED: Readonly<Record<string, string>> = {
  instances: "describes processes that are running; none is while copying",
  turn_queue: "places in line of running processes",
  rate_windows: "per-user rate counts of the last minutes",
  restart_notices: "notices for askers of turns a running process lost; posted by the next start of that engine",
  schema_migrations: "each engine's own, written by its migrations",
  settings_version: "SQLite's change counter for the settings caches",
  history_fts: "SQLite's full-text index of history_messages; PostgreSQL computes history_messages.words",
  history_fts_config: "part of SQLite's full-text index",
  history_fts_data: "part of SQLite's full-text index",
  history_fts_docsize: "part of SQLite's full-text index",
  history_fts_idx: "part of SQLite's full-text index",
  console_sessions: "sign-ins to the console; a copy signs everyone out, as a restart did before sessions were kept",
};

/**
 * What the bot keeps for good, in foreign-key order. Requests for approval still pending expire
 * at the first start (their process is not registered).
 */
export const COPIED_TABLES: readonly TableCopy[] = [
  {
    name: "conversations",
    columns: ["id", "platform", "workspace_id", "channel_id", "thread_id", "window_start", "created_at", "seed_turn_id"],
    orderBy: "id",
    identity: true,
  },
  {
    name: "turns",
    columns: [
      "id",
      "conversation_id",
      "user_id",
      "status",
      "outcome",
      "started_at",
      "ended_at",
      "duration_ms",
      "iterations",
      "prompt_tokens",
      "completion_tokens",
      "total_tokens",
      "error",
      "instance",
      "model",
      "channel_id",
      "kind",
      "trace_id",
      "link",
    ],
    orderBy: "rowid",
    left: { notice_to: "whom to tell of a restart; restart_notices are not copied" },
  },
  {
    name: "messages",
    columns: ["id", "conversation_id", "turn_id", "role", "author", "text", "attachments", "source_id", "created_at"],
    orderBy: "id",
    identity: true,
  },
  {
    name: "conversation_summaries",
    columns: [
      "conversation_id",
      "version",
      "summary",
      "identifiers",
      "covered_to",
      "covers_from",
      "covers_until",
      "updated_at",
      "failures",
      "retry_at",
      "claimed_until",
      "noted",
    ],
    orderBy: "conversation_id",
  },
  {
    name: "history_messages",
    columns: ["id", ...HISTORY_COLUMNS],
    orderBy: "id",
    identity: true,
    left: { words: "PostgreSQL computes it from the text (a generated column)" },
  },
  {
    name: "history_backfills",
    columns: [
      "platform",
      "workspace_id",
      "channel_id",
      "requested_by",
      "since",
      "cursor",
      "read_count",
      "oldest_at",
      "status",
      "claimed_by",
      "claimed_until",
      "started_at",
      "updated_at",
    ],
    orderBy: "rowid",
  },
  { name: "turn_feedback", columns: ["turn_id", "user_id", "platform", "workspace_id", "vote", "voted_at", "changes"], orderBy: "rowid" },
  {
    name: "turn_steps",
    columns: ["id", "turn_id", "seq", "tool", "input", "output", "error", "started_at", "duration_ms", "approval_wait_ms"],
    orderBy: "id",
    identity: true,
  },
  {
    name: "turn_model_calls",
    columns: [
      "turn_id",
      "seq",
      "model",
      "provider",
      "purpose",
      "retry",
      "started_at",
      "duration_ms",
      "first_token_ms",
      "prompt_tokens",
      "completion_tokens",
      "outcome",
      "after_step",
    ],
    cast: { retry: "boolean" },
    orderBy: "turn_id, seq",
  },
  {
    name: "tool_settings",
    columns: ["platform", "workspace_id", "tool", "enabled", "changed_by", "changed_at"],
    cast: { enabled: "boolean" },
    orderBy: "rowid",
  },
  { name: "bot_threads", columns: ["platform", "workspace_id", "channel_id", "thread_id", "scope", "created_at"], orderBy: "rowid" },
  { name: "processed_events", columns: ["platform", "event_id", "received_at"], orderBy: "rowid" },
  { name: "currency_rates", columns: ["source", "rate_date", "rates_json", "fetched_at"], orderBy: "rowid" },
  // Sealed as they are: the same SECRETS_KEY opens them on either engine.
  {
    name: "platform_installations",
    columns: ["platform", "install_key", "team_id", "enterprise_id", "sealed", "expires_at", "installed_at", "updated_at"],
    orderBy: "rowid",
  },
  {
    name: "workspace_settings",
    columns: ["platform", "workspace_id", "key", "value_json", "changed_by", "changed_at"],
    cast: { value_json: "jsonb" },
    orderBy: "rowid",
  },
  { name: "settings_changes", columns: ["id", "platform", "workspace_id", "key", "value_json", "changed_by", "changed_at"], orderBy: "id", identity: true },
  { name: "token_usage_daily", columns: ["platform", "workspace_id", "day", "tokens"], orderBy: "rowid" },
  {
    name: "usage_daily",
    columns: ["platform", "workspace_id", "day", "channel_id", "model", "kind", "turns", "prompt_tokens", "completion_tokens", "total_tokens"],
    orderBy: "platform, workspace_id, day, channel_id, model, kind",
  },
  {
    name: "usage_daily_users",
    columns: ["platform", "workspace_id", "day", "user_id", "turns", "prompt_tokens", "completion_tokens", "total_tokens"],
    orderBy: "platform, workspace_id, day, user_id",
  },
  {
    name: "budget_limits",
    columns: ["platform", "workspace_id", "scope", "subject", "period", "unit", "amount", "changed_by", "changed_at"],
    orderBy: "rowid",
  },
  {
    name: "budget_spend",
    columns: ["budget_key", "window_start", "spent"],
    orderBy: "budget_key, window_start",
    left: { held: "slices held by running processes; none is while copying", held_until: "as held" },
  },
  { name: "budget_alerts", columns: ["budget_key", "window_start", "level", "sent_at"], orderBy: "rowid" },
  { name: "workspace_departures", columns: ["platform", "workspace_id", "left_at", "reason"], orderBy: "rowid" },
  {
    name: "approvals",
    columns: [
      "id",
      "platform",
      "workspace_id",
      "channel_id",
      "turn_id",
      "tool",
      "args_json",
      "asked_by",
      "status",
      "requested_at",
      "decided_by",
      "decided_at",
      "decided_via",
      "instance",
    ],
    orderBy: "rowid",
  },
  {
    name: "tool_approval_settings",
    columns: ["platform", "workspace_id", "tool", "required", "changed_by", "changed_at"],
    cast: { required: "boolean" },
    orderBy: "rowid",
  },
  {
    name: "channel_settings",
    columns: ["platform", "workspace_id", "channel_id", "key", "value_json", "changed_by", "changed_at"],
    cast: { value_json: "jsonb" },
    orderBy: "rowid",
  },
  {
    name: "scheduled_tasks",
    columns: [
      "id",
      "platform",
      "workspace_id",
      "channel_id",
      "creator",
      "when_text",
      "cron",
      "time_zone",
      "task",
      "status",
      "next_due",
      "failures",
      "created_at",
    ],
    orderBy: "rowid",
  },
  {
    name: "scheduled_runs",
    columns: ["task_id", "due_at", "status", "instance", "started_at", "finished_at", "tokens", "link", "detail"],
    orderBy: "rowid",
  },
];

/** Rows per INSERT: well below PostgreSQL's 65,535 parameters per statement. */
const PARAMETERS_PER_BATCH = 30_000;

class TargetNotEmpty extends BotError<"copy_target_not_empty"> {
  override readonly name = "TargetNotEmpty";
  constructor(message: string, options?: ErrorOptions) {
    super("copy_target_not_empty", message, options);
  }
}

/** `npm run migrate -- --to-postgres`: brings the PostgreSQL schema up to date, then copies the file into it. */
export async function copySqliteFileToPostgres(sqlitePath: string, settings: ConnectionSettings): Promise<Record<string, number>> {
  const pool = createPool(settings);
  pool.on("error", () => undefined);
  try {
    await applyPostgresMigrations(pool, POSTGRES_MIGRATIONS);
    return await copySqliteToPostgres(sqlitePath, pool);
  } finally {
    await pool.end();
  }
}

/**
 * Copies every row the bot keeps from a SQLite file into an empty PostgreSQL database (migrated
 * first), in one transaction: either all of it arrives or nothing does. Ids stay as they were, so
 * turns, messages and steps keep pointing at each other, and each identity continues after the
 * highest id copied. Text is copied without NUL characters, which PostgreSQL cannot store.
 * Returns the rows copied per table.
 */
async function copySqliteToPostgres(sqlitePath: string, pool: pg.Pool): Promise<Record<string, number>> {
  const source = openDatabase(sqlitePath);
  try {
    return await inTransaction(pool, async (client) => {
      // No statement timeout for the copy of a big file; the lock keeps two copies from interleaving.
      await client.query("SET LOCAL statement_timeout = 0");
      await client.query("LOCK TABLE conversations IN EXCLUSIVE MODE");
      const { rows } = await client.query<{ used: boolean }>(
        `SELECT EXISTS (SELECT 1 FROM conversations) OR EXISTS (SELECT 1 FROM turns) OR EXISTS (SELECT 1 FROM workspace_settings) AS used`,
      );
      if (rows[0]?.used) throw new TargetNotEmpty("the PostgreSQL database already holds conversations or settings; copy into an empty database");
      const copied: Record<string, number> = {};
      for (const table of COPIED_TABLES) {
        const read = source.prepare(`SELECT ${table.columns.join(", ")} FROM ${table.name} ORDER BY ${table.orderBy}`).raw();
        copied[table.name] = await insertAll(client, table, read.iterate() as IterableIterator<unknown[]>);
        if (table.identity) {
          await client.query(
            `SELECT setval(pg_get_serial_sequence('${table.name}', 'id'), COALESCE((SELECT MAX(id) FROM ${table.name}), 1), (SELECT COUNT(*) > 0 FROM ${table.name}))`,
          );
        }
      }
      return copied;
    });
  } finally {
    source.close();
  }
}

async function insertAll(client: pg.PoolClient, table: TableCopy, rows: Iterable<unknown[]>): Promise<number> {
  const perBatch = Math.max(1, Math.floor(PARAMETERS_PER_BATCH / table.columns.length));
  let batch: unknown[][] = [];
  let count = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const values = batch.map(
      (_, row) =>
        `(${table.columns.map((column, i) => `$${row * table.columns.length + i + 1}${table.cast?.[column] ? `::${castOf(table.cast[column]!)}` : ""}`).join(", ")})`,
    );
    await client.query(`INSERT INTO ${table.name} (${table.columns.join(", ")}) VALUES ${values.join(", ")}`, batch.flat());
    count += batch.length;
    batch = [];
  };
  for (const row of rows) {
    batch.push(row.map((value, i) => convert(value, table.cast?.[table.columns[i]!])));
    if (batch.length >= perBatch) await flush();
  }
  await flush();
  return count;
}

/** Casts written into the statement come from the table list above, never from data. */
const castOf = (type: string) => (type === "boolean" ? "boolean" : "jsonb");

function convert(value: unknown, cast: string | undefined): unknown {
  if (cast === "boolean") return value === 1 || value === true;
  if (typeof value === "string") return cast === "jsonb" ? value.replaceAll("\\u0000", "") : storable(value);
  if (typeof value === "bigint") return Number(value);
  return value;
}

/**
 * The backfills' statements, written once for both engines with named parameters (`@name`):
 * SQLite binds them as they are, PostgreSQL as `$n` (see postgres/backfills.ts).
 */
const KEY = `platform = @platform AND workspace_id = @workspaceId AND channel_id = @channelId`;

export const BACKFILL_SQL = {
  /** A running backfill held by a live lease is left alone; anything else starts over. */
  begin: `INSERT INTO history_backfills (platform, workspace_id, channel_id, requested_by, since, cursor, read_count, oldest_at, status, claimed_by, claimed_until, started_at, updated_at)
    VALUES (@platform, @workspaceId, @channelId, @requestedBy, @since, NULL, 0, NULL, 'running', NULL, 0, @now, @now)
    ON CONFLICT (platform, workspace_id, channel_id) DO UPDATE SET requested_by = excluded.requested_by, since = excluded.since, cursor = NULL,
      read_count = 0, oldest_at = NULL, status = 'running', claimed_by = NULL, claimed_until = 0, started_at = excluded.started_at, updated_at = excluded.updated_at
    WHERE history_backfills.status <> 'running' OR history_backfills.claimed_until <= @now`,
  get: `SELECT * FROM history_backfills WHERE ${KEY}`,
  resumable: `SELECT * FROM history_backfills WHERE platform = @platform AND status = 'running' AND claimed_until <= @now ORDER BY started_at`,
  claim: `UPDATE history_backfills SET claimed_by = @owner, claimed_until = @until
    WHERE ${KEY} AND status = 'running' AND (claimed_until <= @now OR claimed_by = @owner)`,
  advance: `UPDATE history_backfills SET cursor = @cursor, read_count = read_count + @read, oldest_at = COALESCE(@oldestAt, oldest_at), updated_at = @now
    WHERE ${KEY} AND status = 'running' AND claimed_by = @owner`,
  finish: `UPDATE history_backfills SET status = @status, claimed_by = NULL, claimed_until = 0, updated_at = @now WHERE ${KEY} AND claimed_by = @owner`,
  release: `UPDATE history_backfills SET claimed_by = NULL, claimed_until = 0 WHERE ${KEY} AND claimed_by = @owner`,
} as const;

export type BackfillStatement = keyof typeof BACKFILL_SQL;

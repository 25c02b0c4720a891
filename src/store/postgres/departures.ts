import type pg from "pg";
import type { WorkspaceRef } from "../types.js";
import { namesIn, PURGE_PLAN, purgeValues, type Departure, type DepartureStore } from "../departure-store.js";
import { workspaceKey } from "../settings-cache.js";
import { inTransaction } from "./connection.js";
import { notifySettingsChanged } from "./settings.js";

/** A purge step's condition with its `@` names as PostgreSQL's numbered parameters, the limit last. */
const STEPS = PURGE_PLAN.map(({ table, match }) => {
  const names = namesIn(match);
  const numbered = names.reduce((sql, name, i) => sql.replaceAll(`@${name}`, `$${i + 1}`), match);
  return { names, sql: `DELETE FROM ${table} WHERE ctid IN (SELECT ctid FROM ${table} WHERE ${numbered} LIMIT $${names.length + 1})` };
});

/**
 * Departed workspaces in PostgreSQL; a purge round locks its departure row, so a reinstall waits
 * for the round and stops the next. A round that deleted rows notifies a settings change in its
 * transaction, as a settings change does: the workspace's settings and tool flags may have gone,
 * and every process caches them.
 */
export class PostgresDepartures implements DepartureStore {
  /** `settingsChanged`: drops this process's cached settings of a workspace (by its key) at once, before the notification comes back. */
  constructor(
    private readonly pool: pg.Pool,
    private readonly settingsChanged: (workspaceKey: string) => void,
  ) {}

  async left(departure: Departure): Promise<void> {
    await this.pool.query(`INSERT INTO workspace_departures (platform, workspace_id, left_at, reason) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`, [
      departure.platform,
      departure.workspaceId,
      departure.leftAt,
      departure.reason,
    ]);
  }

  async returned(workspace: WorkspaceRef): Promise<boolean> {
    const { rowCount } = await this.pool.query(`DELETE FROM workspace_departures WHERE platform = $1 AND workspace_id = $2`, [
      workspace.platform,
      workspace.workspaceId,
    ]);
    return (rowCount ?? 0) > 0;
  }

  async due(cutoff: number, limit: number): Promise<Departure[]> {
    const { rows } = await this.pool.query<Departure & { leftAt: string | number }>(
      `SELECT platform, workspace_id AS "workspaceId", left_at AS "leftAt", reason FROM workspace_departures
       WHERE left_at <= $1 ORDER BY left_at, platform, workspace_id LIMIT $2`,
      [cutoff, limit],
    );
    return rows.map((row) => ({ ...row, leftAt: Number(row.leftAt) }));
  }

  async purgeRound(workspace: WorkspaceRef, cutoff: number, limit: number): Promise<number> {
    const rows = await inTransaction(this.pool, async (client) => {
      const stands = await client.query(`SELECT 1 FROM workspace_departures WHERE platform = $1 AND workspace_id = $2 AND left_at <= $3 FOR UPDATE`, [
        workspace.platform,
        workspace.workspaceId,
        cutoff,
      ]);
      if (stands.rowCount === 0) return 0;
      const values = purgeValues(workspace);
      for (const step of STEPS) {
        const { rowCount } = await client.query(step.sql, [...step.names.map((name) => values[name]), limit]);
        if ((rowCount ?? 0) > 0) {
          await notifySettingsChanged(client, workspace);
          return rowCount ?? 0;
        }
      }
      await client.query(`DELETE FROM workspace_departures WHERE platform = $1 AND workspace_id = $2`, [workspace.platform, workspace.workspaceId]);
      return 0;
    });
    if (rows > 0) this.settingsChanged(workspaceKey(workspace));
    return rows;
  }
}

import { namesIn, PURGE_PLAN, purgeValues, type Departure, type DepartureStore } from "../departure-store.js";
import type { WorkspaceRef } from "../types.js";
import type { Db } from "./database.js";
import type { SettingsVersion } from "./settings-version.js";

/**
 * Departed workspaces in SQLite; each purge round is one IMMEDIATE transaction that checks the
 * departure first. A round that deleted rows bumps the settings version in that transaction: the
 * workspace's settings, tool flags and budgets may have gone, and every process caches them.
 */
export class SqliteDepartures implements DepartureStore {
  private readonly insert;
  private readonly remove;
  private readonly selectDue;
  private readonly roundTx: (workspace: WorkspaceRef, cutoff: number, limit: number) => number;

  constructor(db: Db, version: SettingsVersion) {
    this.insert = db.prepare<[string, string, number, string]>(
      `INSERT INTO workspace_departures (platform, workspace_id, left_at, reason) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`,
    );
    this.remove = db.prepare<[string, string]>(`DELETE FROM workspace_departures WHERE platform = ? AND workspace_id = ?`);
    this.selectDue = db.prepare<[number, number], Departure>(
      `SELECT platform, workspace_id AS workspaceId, left_at AS leftAt, reason FROM workspace_departures WHERE left_at <= ? ORDER BY left_at, platform, workspace_id LIMIT ?`,
    );
    const stands = db
      .prepare<[string, string, number], number>(`SELECT 1 FROM workspace_departures WHERE platform = ? AND workspace_id = ? AND left_at <= ?`)
      .pluck();
    const steps = PURGE_PLAN.map(({ table, match, key = "rowid" }) => ({
      names: namesIn(match),
      statement: db.prepare(`DELETE FROM ${table} WHERE (${key}) IN (SELECT ${key} FROM ${table} WHERE ${match} LIMIT @n)`),
    }));
    const round = db.transaction((workspace: WorkspaceRef, cutoff: number, limit: number): number => {
      if (stands.get(workspace.platform, workspace.workspaceId, cutoff) === undefined) return 0;
      const values = purgeValues(workspace);
      for (const step of steps) {
        const bound = Object.fromEntries([...step.names.map((name) => [name, values[name]]), ["n", limit]]);
        const { changes } = step.statement.run(bound);
        if (changes > 0) {
          version.bump();
          return changes;
        }
      }
      this.remove.run(workspace.platform, workspace.workspaceId);
      return 0;
    });
    this.roundTx = (workspace, cutoff, limit) => round.immediate(workspace, cutoff, limit);
  }

  async left(departure: Departure): Promise<void> {
    this.insert.run(departure.platform, departure.workspaceId, departure.leftAt, departure.reason);
  }

  async returned(workspace: WorkspaceRef): Promise<boolean> {
    return this.remove.run(workspace.platform, workspace.workspaceId).changes > 0;
  }

  async due(cutoff: number, limit: number): Promise<Departure[]> {
    return this.selectDue.all(cutoff, limit);
  }

  async purgeRound(workspace: WorkspaceRef, cutoff: number, limit: number): Promise<number> {
    return this.roundTx(workspace, cutoff, limit);
  }
}

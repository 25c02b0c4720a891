import type pg from "pg";
import {
  budgetAuditEntry,
  decideReservation,
  type BudgetAmount,
  type BudgetCharge,
  type BudgetStore,
  type BudgetSlot,
  type ReserveRequest,
  type Reservation,
  type StoredBudget,
} from "../budget-store.js";
import type { WorkspaceRef } from "../types.js";
import { inTransaction } from "./connection.js";
import { recordChange } from "./settings.js";

/**
 * Budgets in PostgreSQL. A reservation locks its budgets' spend rows (in key order, so two
 * calls of overlapping budgets cannot deadlock) as it reads what they used and held, so of two
 * processes reaching for the last of a budget the second sees the first's hold.
 */
export class PostgresBudgets implements BudgetStore {
  constructor(private readonly pool: pg.Pool) {}

  async limits(workspace: WorkspaceRef): Promise<StoredBudget[]> {
    const { rows } = await this.pool.query<StoredBudget>(
      `SELECT scope, subject, period, unit, amount, changed_by AS "changedBy", changed_at AS "changedAt"
       FROM budget_limits WHERE platform = $1 AND workspace_id = $2 ORDER BY scope, subject, period`,
      [workspace.platform, workspace.workspaceId],
    );
    return rows;
  }

  async setLimit(workspace: WorkspaceRef, slot: BudgetSlot, amount: BudgetAmount | undefined, changedBy: string): Promise<void> {
    const where = [workspace.platform, workspace.workspaceId, slot.scope, slot.subject, slot.period];
    const now = Date.now();
    const entry = budgetAuditEntry(slot, amount);
    await inTransaction(this.pool, async (client) => {
      if (amount === undefined) {
        await client.query(`DELETE FROM budget_limits WHERE platform = $1 AND workspace_id = $2 AND scope = $3 AND subject = $4 AND period = $5`, where);
      } else {
        await client.query(
          `INSERT INTO budget_limits (platform, workspace_id, scope, subject, period, unit, amount, changed_by, changed_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
           ON CONFLICT (platform, workspace_id, scope, subject, period)
           DO UPDATE SET unit = excluded.unit, amount = excluded.amount, changed_by = excluded.changed_by, changed_at = excluded.changed_at`,
          [...where, amount.unit, amount.amount, changedBy, now],
        );
      }
      await recordChange(client, workspace, entry.key, entry.valueJson, changedBy, now);
    });
  }

  async reserve(request: ReserveRequest): Promise<Reservation> {
    const order = request.lines.map((_, i) => i).sort((a, b) => compareLines(request.lines[a]!, request.lines[b]!));
    return inTransaction(this.pool, async (client) => {
      const used: number[] = new Array(request.lines.length);
      for (const i of order) {
        const line = request.lines[i]!;
        await client.query(`INSERT INTO budget_spend (budget_key, window_start) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [line.key, line.windowStart]);
        // The row is locked and read in one statement: FOR UPDATE returns its newest version, after whoever held the lock.
        const { rows } = await client.query<{ used: number }>(
          `SELECT spent + CASE WHEN held_until > $3 THEN held ELSE 0 END AS used FROM budget_spend WHERE budget_key = $1 AND window_start = $2 FOR UPDATE`,
          [line.key, line.windowStart, request.now],
        );
        used[i] = Number(rows[0]?.used ?? 0);
      }
      const reservation = decideReservation(request, used);
      if (!reservation.granted) return reservation;
      for (const i of order) {
        const line = request.lines[i]!;
        await client.query(
          `UPDATE budget_spend SET held = $3 + CASE WHEN held_until > $4 THEN held ELSE 0 END, held_until = GREATEST(held_until, $5)
           WHERE budget_key = $1 AND window_start = $2`,
          [line.key, line.windowStart, reservation.held[i], request.now, request.now + request.holdMs],
        );
      }
      return reservation;
    });
  }

  async settle(charges: readonly BudgetCharge[]): Promise<number[]> {
    const order = charges.map((_, i) => i).sort((a, b) => compareLines(charges[a]!, charges[b]!));
    return inTransaction(this.pool, async (client) => {
      const after: number[] = new Array(charges.length);
      for (const i of order) {
        const charge = charges[i]!;
        const { rows } = await client.query<{ spent: number }>(
          `INSERT INTO budget_spend (budget_key, window_start, spent) VALUES ($1, $2, $3)
           ON CONFLICT (budget_key, window_start) DO UPDATE SET spent = budget_spend.spent + excluded.spent, held = GREATEST(0, budget_spend.held - $4)
           RETURNING spent`,
          [charge.key, charge.windowStart, charge.amount, charge.held],
        );
        after[i] = Number(rows[0]!.spent);
      }
      return after;
    });
  }

  async spent(lines: readonly { key: string; windowStart: number }[]): Promise<number[]> {
    if (lines.length === 0) return [];
    const { rows } = await this.pool.query<{ key: string; windowStart: number; spent: number }>(
      `SELECT budget_key AS key, window_start AS "windowStart", spent FROM budget_spend
       WHERE (budget_key, window_start) IN (SELECT * FROM unnest($1::text[], $2::bigint[]))`,
      [lines.map((line) => line.key), lines.map((line) => line.windowStart)],
    );
    return lines.map((line) => Number(rows.find((row) => row.key === line.key && row.windowStart === line.windowStart)?.spent ?? 0));
  }

  async spendSince(since: number, limit: number): Promise<{ key: string; windowStart: number; amount: number }[]> {
    const { rows } = await this.pool.query<{ key: string; windowStart: number; amount: number }>(
      `SELECT budget_key AS key, window_start AS "windowStart", spent AS amount FROM budget_spend WHERE window_start >= $1 ORDER BY budget_key, window_start LIMIT $2`,
      [since, limit],
    );
    return rows;
  }

  async claimAlert(key: string, windowStart: number, level: number, now: number): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `INSERT INTO budget_alerts (budget_key, window_start, level, sent_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
      [key, windowStart, level, now],
    );
    return rowCount === 1;
  }
}

/** One order for every process: the rows a transaction locks are locked in it. */
function compareLines(a: { key: string; windowStart: number }, b: { key: string; windowStart: number }): number {
  return a.key < b.key ? -1 : a.key > b.key ? 1 : a.windowStart - b.windowStart;
}

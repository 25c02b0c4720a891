import {
  decideReservation,
  type BudgetAmount,
  type BudgetCharge,
  type BudgetRepository,
  type BudgetSlot,
  type ReserveRequest,
  type Reservation,
  type StoredBudget,
} from "../budget-repository.js";
import type { WorkspaceRef } from "../types.js";
import type { Db } from "./database.js";

/**
 * Budgets in SQLite. A reservation is one IMMEDIATE transaction (the write lock is taken before
 * the check), so processes sharing the file check and hold one after the other.
 */
export class SqliteBudgets implements BudgetRepository {
  private readonly selectLimits;
  private readonly upsertLimit;
  private readonly deleteLimit;
  private readonly used;
  private readonly dropExpired;
  private readonly hold;
  private readonly spentOf;
  private readonly alert;
  private readonly since;
  private readonly reserveTx: (request: ReserveRequest) => Reservation;
  private readonly settleTx: (holdId: string, charges: readonly BudgetCharge[]) => number[];

  constructor(db: Db) {
    this.selectLimits = db.prepare<[string, string], StoredBudget>(
      `SELECT scope, subject, period, unit, amount, changed_by AS changedBy, changed_at AS changedAt
       FROM budget_limits WHERE platform = ? AND workspace_id = ? ORDER BY scope, subject, period`,
    );
    this.upsertLimit = db.prepare<[string, string, string, string, string, string, number, string, number]>(
      `INSERT INTO budget_limits (platform, workspace_id, scope, subject, period, unit, amount, changed_by, changed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (platform, workspace_id, scope, subject, period)
       DO UPDATE SET unit = excluded.unit, amount = excluded.amount, changed_by = excluded.changed_by, changed_at = excluded.changed_at`,
    );
    this.deleteLimit = db.prepare<[string, string, string, string, string]>(
      `DELETE FROM budget_limits WHERE platform = ? AND workspace_id = ? AND scope = ? AND subject = ? AND period = ?`,
    );
    this.used = db
      .prepare<[string, number, string, number, number], number>(
        `SELECT COALESCE((SELECT spent FROM budget_spend WHERE budget_key = ? AND window_start = ?), 0)
              + COALESCE((SELECT SUM(amount) FROM budget_holds WHERE budget_key = ? AND window_start = ? AND expires_at > ?), 0)`,
      )
      .pluck();
    this.dropExpired = db.prepare<[string, number, number]>(`DELETE FROM budget_holds WHERE budget_key = ? AND window_start = ? AND expires_at <= ?`);
    this.hold = db.prepare<[string, string, number, number, number]>(
      `INSERT INTO budget_holds (hold_id, budget_key, window_start, amount, expires_at) VALUES (?, ?, ?, ?, ?)`,
    );
    this.spentOf = db.prepare<[string, number], number>(`SELECT spent FROM budget_spend WHERE budget_key = ? AND window_start = ?`).pluck();
    const addSpent = db
      .prepare<[string, number, number], number>(
        `INSERT INTO budget_spend (budget_key, window_start, spent) VALUES (?, ?, ?)
         ON CONFLICT (budget_key, window_start) DO UPDATE SET spent = spent + excluded.spent RETURNING spent`,
      )
      .pluck();
    this.since = db.prepare<[number, number], BudgetCharge>(
      `SELECT budget_key AS key, window_start AS windowStart, spent AS amount FROM budget_spend WHERE window_start >= ? ORDER BY budget_key, window_start LIMIT ?`,
    );
    const release = db.prepare<[string]>(`DELETE FROM budget_holds WHERE hold_id = ?`);
    this.alert = db.prepare<[string, number, number, number]>(
      `INSERT INTO budget_alerts (budget_key, window_start, level, sent_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`,
    );
    const reserve = db.transaction((request: ReserveRequest): Reservation => {
      const used = request.lines.map((line) => this.used.get(line.key, line.windowStart, line.key, line.windowStart, request.now) ?? 0);
      const { reservation, holds } = decideReservation(request, used);
      if (!reservation.granted) return reservation;
      const expires = request.now + request.holdMs;
      request.lines.forEach((line, i) => {
        this.dropExpired.run(line.key, line.windowStart, request.now);
        this.hold.run(request.holdId, line.key, line.windowStart, holds[i]!, expires);
      });
      return reservation;
    });
    this.reserveTx = (request) => reserve.immediate(request);
    this.settleTx = db.transaction((holdId: string, charges: readonly BudgetCharge[]) => {
      release.run(holdId);
      return charges.map((charge) => addSpent.get(charge.key, charge.windowStart, charge.amount) ?? 0);
    });
  }

  async limits(workspace: WorkspaceRef): Promise<StoredBudget[]> {
    return this.selectLimits.all(workspace.platform, workspace.workspaceId);
  }

  async setLimit(workspace: WorkspaceRef, slot: BudgetSlot, amount: BudgetAmount | undefined, changedBy: string): Promise<void> {
    const where = [workspace.platform, workspace.workspaceId, slot.scope, slot.subject, slot.period] as const;
    if (amount === undefined) this.deleteLimit.run(...where);
    else this.upsertLimit.run(...where, amount.unit, amount.amount, changedBy, Date.now());
  }

  async reserve(request: ReserveRequest): Promise<Reservation> {
    return this.reserveTx(request);
  }

  async settle(holdId: string, charges: readonly BudgetCharge[]): Promise<number[]> {
    return this.settleTx(holdId, charges);
  }

  async spent(lines: readonly { key: string; windowStart: number }[]): Promise<number[]> {
    return lines.map((line) => this.spentOf.get(line.key, line.windowStart) ?? 0);
  }

  async spendSince(since: number, limit: number): Promise<BudgetCharge[]> {
    return this.since.all(since, limit);
  }

  async claimAlert(key: string, windowStart: number, level: number, now: number): Promise<boolean> {
    return this.alert.run(key, windowStart, level, now).changes === 1;
  }
}

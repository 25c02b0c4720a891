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
import type { SettingsCache } from "../settings-cache.js";
import type { WorkspaceRef } from "../types.js";
import type { Db } from "./database.js";
import type { Audit, SettingsVersion } from "./settings-version.js";

/** The admins' budgets cached per workspace, invalidated through the settings version row as settings are. */
export interface CachedLimits {
  cache: SettingsCache<readonly StoredBudget[]>;
  version: SettingsVersion;
}

/**
 * Budgets in SQLite. A reservation is one IMMEDIATE transaction (the write lock is taken before
 * the check), so processes sharing the file check and hold one after the other. It writes one
 * row per budget (its sum of holds), the least a commit can write: the check before every model
 * call costs a few tens of microseconds. The admins' budgets (read at every turn's start and its
 * first call) are cached like the settings: every change bumps the settings version row in its
 * transaction, so another process's change applies from its next look.
 */
export class SqliteBudgets implements BudgetStore {
  private readonly selectLimits;
  private readonly upsertLimit;
  private readonly deleteLimit;
  private readonly spentOf;
  private readonly alert;
  private readonly since;
  private readonly reserveTx: (request: ReserveRequest) => Reservation;
  private readonly settleTx: (charges: readonly BudgetCharge[]) => number[];
  private readonly change: (workspace: WorkspaceRef, slot: BudgetSlot, amount: BudgetAmount | undefined, changedBy: string) => void;

  /** `audit`: the settings audit's insert, which a budget's change writes in its transaction; `cached`: the admins' budgets as this process keeps them. */
  constructor(
    db: Db,
    audit: Audit,
    private readonly cached: CachedLimits,
  ) {
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
    // One statement reads every budget of a call and one holds them all: prepared once per number of budgets.
    const usedOf = byCount((count) =>
      db.prepare<unknown[], { key: string; windowStart: number; used: number }>(
        // Holds not renewed for the hold time belong to calls long over: they count as nothing.
        `SELECT budget_key AS key, window_start AS windowStart, spent + CASE WHEN held_until > ? THEN held ELSE 0 END AS used FROM budget_spend
         WHERE (budget_key, window_start) IN (VALUES ${Array.from({ length: count }, () => "(?, ?)").join(", ")})`,
      ),
    );
    const holdAll = byCount((count) =>
      db.prepare<unknown[]>(
        `INSERT INTO budget_spend (budget_key, window_start, held, held_until) VALUES ${Array.from({ length: count }, () => "(?, ?, ?, ?)").join(", ")}
         ON CONFLICT (budget_key, window_start) DO UPDATE SET
           held = excluded.held + CASE WHEN held_until > excluded.held_until - ? THEN held ELSE 0 END,
           held_until = MAX(held_until, excluded.held_until)`,
      ),
    );
    this.spentOf = db.prepare<[string, number], number>(`SELECT spent FROM budget_spend WHERE budget_key = ? AND window_start = ?`).pluck();
    const settle = db
      .prepare<[string, number, number, number], number>(
        `INSERT INTO budget_spend (budget_key, window_start, spent) VALUES (?, ?, ?)
         ON CONFLICT (budget_key, window_start) DO UPDATE SET spent = spent + excluded.spent, held = MAX(0, held - ?) RETURNING spent`,
      )
      .pluck();
    this.alert = db.prepare<[string, number, number, number]>(
      `INSERT INTO budget_alerts (budget_key, window_start, level, sent_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`,
    );
    this.since = db.prepare<[number, number], { key: string; windowStart: number; amount: number }>(
      `SELECT budget_key AS key, window_start AS windowStart, spent AS amount FROM budget_spend WHERE window_start >= ? ORDER BY budget_key, window_start LIMIT ?`,
    );
    const reserve = db.transaction((request: ReserveRequest): Reservation => {
      const { lines, now } = request;
      const args: unknown[] = [now];
      for (const line of lines) args.push(line.key, line.windowStart);
      const rows = usedOf(lines.length).all(...args);
      const used = lines.map((line) => rows.find((row) => row.key === line.key && row.windowStart === line.windowStart)?.used ?? 0);
      const reservation = decideReservation(request, used);
      if (!reservation.granted) return reservation;
      const holds: unknown[] = [];
      lines.forEach((line, i) => holds.push(line.key, line.windowStart, reservation.held[i]!, now + request.holdMs));
      holdAll(lines.length).run(...holds, request.holdMs);
      return reservation;
    });
    this.reserveTx = (request) => reserve.immediate(request);
    this.settleTx = db.transaction((charges: readonly BudgetCharge[]) =>
      charges.map((charge) => settle.get(charge.key, charge.windowStart, charge.amount, charge.held) ?? 0),
    );
    this.change = db.transaction((workspace: WorkspaceRef, slot: BudgetSlot, amount: BudgetAmount | undefined, changedBy: string) => {
      const where = [workspace.platform, workspace.workspaceId, slot.scope, slot.subject, slot.period] as const;
      const now = Date.now();
      if (amount === undefined) this.deleteLimit.run(...where);
      else this.upsertLimit.run(...where, amount.unit, amount.amount, changedBy, now);
      const entry = budgetAuditEntry(slot, amount);
      audit.run(workspace.platform, workspace.workspaceId, entry.key, entry.valueJson, changedBy, now);
      cached.version.bump();
    });
  }

  async limits(workspace: WorkspaceRef): Promise<readonly StoredBudget[]> {
    this.cached.version.check();
    return this.cached.cache.get(workspace, () => this.selectLimits.all(workspace.platform, workspace.workspaceId));
  }

  async setLimit(workspace: WorkspaceRef, slot: BudgetSlot, amount: BudgetAmount | undefined, changedBy: string): Promise<void> {
    this.change(workspace, slot, amount, changedBy);
    this.cached.version.check();
  }

  async reserve(request: ReserveRequest): Promise<Reservation> {
    return this.reserveTx(request);
  }

  async settle(charges: readonly BudgetCharge[]): Promise<number[]> {
    return this.settleTx(charges);
  }

  async spent(lines: readonly { key: string; windowStart: number }[]): Promise<number[]> {
    return lines.map((line) => this.spentOf.get(line.key, line.windowStart) ?? 0);
  }

  async spendSince(since: number, limit: number): Promise<{ key: string; windowStart: number; amount: number }[]> {
    return this.since.all(since, limit);
  }

  async claimAlert(key: string, windowStart: number, level: number, now: number): Promise<boolean> {
    return this.alert.run(key, windowStart, level, now).changes === 1;
  }
}

/** A statement per number of budgets a call counts against (a handful: at most six). */
function byCount<T>(prepare: (count: number) => T): (count: number) => T {
  const statements = new Map<number, T>();
  return (count) => {
    let statement = statements.get(count);
    if (!statement) statements.set(count, (statement = prepare(count)));
    return statement;
  };
}

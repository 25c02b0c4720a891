import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CallBudget } from "../../src/agent/call-budget.js";
import { silentLogger } from "../../src/log.js";
import { Budgets, type BudgetSubject } from "../../src/runner/budgets/budgets.js";
import type { BudgetStore } from "../../src/store/budget-store.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";

const subject: BudgetSubject = { platform: "test", workspaceId: "w1", channelId: "c1", userId: "u1", timeZone: "UTC" };
/** Large enough for slices: eight calls' reservations (a 200-token prompt and 4,096 answer tokens each) are under a twentieth of it. */
const LIMIT = 1_000_000;
const PROMPT = 200;
const ANSWER = 1_800;

/** One call that answers with ANSWER tokens (or what it was allowed); false when it was refused. */
async function call(budget: CallBudget): Promise<boolean> {
  const permit = await budget.reserve({ model: "m", countPromptTokens: () => PROMPT });
  if (!permit.allowed) return false;
  const answer = Math.min(ANSWER, permit.maxTokens ?? ANSWER);
  await permit.settle({ promptTokens: PROMPT, completionTokens: answer, totalTokens: PROMPT + answer });
  return true;
}

describe("budget slices: most calls reserve from the process's own share of a budget, and processes never spend more than it together", () => {
  let dir: string;
  let stores: SqliteStore[];
  let now: number;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "agent-bot-slices-"));
    stores = [];
    now = Date.UTC(2026, 11, 1, 12);
  });
  afterEach(async () => {
    for (const store of stores) await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A process: its own connection to the one file, its own Budgets, counting the store's reservations. */
  function process(): { budget: CallBudget; reservations: () => number; store: SqliteStore } {
    const store = SqliteStore.open(join(dir, "bot.sqlite"));
    stores.push(store);
    let reservations = 0;
    const repository: BudgetStore = Object.create(store.budgets);
    repository.reserve = (request) => {
      reservations++;
      return store.budgets.reserve(request);
    };
    const budgets = new Budgets({
      repository,
      defaults: [{ scope: "workspace", period: "day", unit: "tokens", amount: LIMIT, source: "DAILY_TOKEN_BUDGET" }],
      prices: {},
      logger: silentLogger(),
      now: () => now,
    });
    return { budget: budgets.forCall(subject), reservations: () => reservations, store };
  }

  it("reserves once per slice, spends to the end of the budget from two processes, and never past it", async () => {
    const [a, b] = [process(), process()];
    let calls = 0;
    // Turns alternate between the processes until neither may make a call.
    for (let open = [a, b]; open.length > 0; ) {
      const next: typeof open = [];
      for (const p of open) {
        if (await call(p.budget)) {
          calls++;
          next.push(p);
        }
      }
      open = next;
      now += 1_000;
    }
    const rows = await a.store.budgets.spendSince(0, 10);
    expect(rows).toHaveLength(1);
    const spent = rows[0]!.amount;
    // Every call is charged its real cost; together they never cross the budget, and stop short of it by less than one call's reservation.
    expect(spent).toBeLessThanOrEqual(LIMIT);
    expect(spent).toBeGreaterThan(LIMIT - (PROMPT + 4_096));
    // A slice is eight calls' worth: while the budget was far from its end, one reservation in the store served many calls.
    expect(a.reservations() + b.reservations()).toBeLessThan(calls / 2);
  });

  it("gives a slice back when it grows old, so the other process may spend what it held", async () => {
    const [a, b] = [process(), process()];
    expect(await call(a.budget)).toBe(true);
    const before = a.reservations();
    now += 61_000;
    expect(await call(a.budget)).toBe(true);
    // The old slice went back and a new one was taken.
    expect(a.reservations()).toBe(before + 1);
    expect(await call(b.budget)).toBe(true);
  });
});

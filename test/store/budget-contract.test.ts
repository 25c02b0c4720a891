import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { budgetKey, type BudgetLine, type BudgetStore } from "../../src/store/budget-store.js";
import type { Store } from "../../src/store/store.js";
import { describeOnEngines } from "./engines.js";

/** The budgets' store contract, the same for both engines, with three stores on one database standing for three processes. */
const HOLD_MS = 60_000;

function tokensLine(limit: number, promptTokens: number, key = `b-${randomUUID()}`): BudgetLine {
  return { key, windowStart: 0, limit, promptCost: promptTokens, tokenCost: 1 };
}

const reserve = (repository: BudgetStore, lines: BudgetLine[], now = 1_000, ceiling = 4_096) =>
  repository.reserve({ lines, ceiling, floor: 64, now, holdMs: HOLD_MS });

await describeOnEngines(
  (engine) => `the ${engine.name} store's budgets`,
  3,
  (it, engine) => {
    it("keeps the budgets admins set, for every process, until they are cleared", async ({ a, b }) => {
      const ws = { platform: "test", workspaceId: `w-${randomUUID()}` };
      await a.budgets.setLimit(ws, { scope: "channel", subject: "c1", period: "day" }, { unit: "tokens", amount: 5_000 }, "boss");
      await a.budgets.setLimit(ws, { scope: "workspace", subject: "", period: "month" }, { unit: "usd", amount: 12.5 }, "boss");
      await a.budgets.setLimit(ws, { scope: "channel", subject: "c1", period: "day" }, { unit: "tokens", amount: 6_000 }, "other admin");
      expect(await b.budgets.limits(ws)).toEqual([
        { scope: "channel", subject: "c1", period: "day", unit: "tokens", amount: 6_000, changedBy: "other admin", changedAt: expect.any(Number) },
        { scope: "workspace", subject: "", period: "month", unit: "usd", amount: 12.5, changedBy: "boss", changedAt: expect.any(Number) },
      ]);
      await b.budgets.setLimit(ws, { scope: "channel", subject: "c1", period: "day" }, undefined, "boss");
      expect((await a.budgets.limits(ws)).map((row) => row.scope)).toEqual(["workspace"]);
    });

    it("writes each budget set or removed into the settings audit, so the settings' version moves for every process", async ({ a, b }) => {
      const ws = { platform: "test", workspaceId: `w-${randomUUID()}` };
      const version = await b.audit.settingsVersion(ws);
      await a.budgets.setLimit(ws, { scope: "user", subject: "*", period: "day" }, { unit: "tokens", amount: 2_000 }, "boss");
      await a.budgets.setLimit(ws, { scope: "workspace", subject: "", period: "month" }, { unit: "usd", amount: 12.5 }, "boss");
      await a.budgets.setLimit(ws, { scope: "user", subject: "*", period: "day" }, undefined, "other admin");
      expect(await b.audit.settingsVersion(ws)).toBeGreaterThan(version);
      expect((await b.audit.changesSince(ws, version, 10)).map(({ key, value, changedBy }) => ({ key, value, changedBy }))).toEqual([
        { key: "budget:user:*:day", value: '{"unit":"tokens","amount":2000}', changedBy: "boss" },
        { key: "budget:workspace::month", value: '{"unit":"usd","amount":12.5}', changedBy: "boss" },
        { key: "budget:user:*:day", value: "null", changedBy: "other admin" },
      ]);
    });

    it("holds a call's cost before it is made: a second process cannot spend the same remainder, until the first settles", async ({ a, b, c }) => {
      const line = tokensLine(1_000, 100);
      const first = await reserve(a.budgets, [line]);
      expect(first).toEqual({ granted: true, maxTokens: 900, limitedBy: 0, held: [1_000] });
      expect(await reserve(b.budgets, [line])).toEqual({ granted: false, line: 0, why: "prompt" });

      expect(await a.budgets.settle([{ key: line.key, windowStart: 0, amount: 300, held: 1_000 }])).toEqual([300]);
      expect(await reserve(b.budgets, [line])).toEqual({ granted: true, maxTokens: 600, limitedBy: 0, held: [700] });
      expect(
        await c.budgets.spent([
          { key: line.key, windowStart: 0 },
          { key: "never used", windowStart: 0 },
        ]),
      ).toEqual([300, 0]);
    });

    it("refuses a call whose answer would get fewer tokens than the floor, names the tightest budget, and forgets a dead process's hold", async ({ a, b }) => {
      const roomy = tokensLine(100_000, 100);
      const tight = tokensLine(150, 100);
      expect(await reserve(a.budgets, [roomy, tight])).toEqual({ granted: false, line: 1, why: "floor" });
      expect(await reserve(a.budgets, [roomy])).toEqual({ granted: true, maxTokens: 4_096, held: [4_196] });

      const small = tokensLine(500, 100);
      await reserve(a.budgets, [small], 1_000);
      expect((await reserve(b.budgets, [small], 1_000)).granted).toBe(false);
      // Once nothing reserved against the budget for the hold time, its holds no longer count (a process died mid-call).
      expect(await reserve(b.budgets, [small], 1_000 + HOLD_MS)).toEqual({ granted: true, maxTokens: 400, limitedBy: 0, held: [500] });
    });

    it("records each alert once, whichever process claims it first", async ({ a, b, c }) => {
      const key = budgetKey({ platform: "test", workspaceId: `w-${randomUUID()}` }, "workspace", "", "day");
      const claims = await Promise.all([a, b, c].map((store) => store.budgets.claimAlert(key, 0, 80, 1)));
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect(await a.budgets.claimAlert(key, 0, 100, 1)).toBe(true);
      expect(await b.budgets.claimAlert(key, 86_400_000, 80, 1)).toBe(true);
    });

    it("three processes spending one budget at once never exceed it by more than the prompts' estimate error", async ({ a, b, c }) => {
      const limit = 20_000;
      const key = `b-${randomUUID()}`;
      const estimate = 150;
      // The real prompt may be up to this much longer than estimated: the only error a reservation can make.
      const estimateError = 10;
      let calls = 0;
      const spender = async (store: Store, seed: number) => {
        for (let i = 0; ; i++) {
          const reservation = await store.budgets.reserve({
            lines: [{ key, windowStart: 0, limit, promptCost: estimate, tokenCost: 1 }],
            ceiling: 600,
            floor: 64,
            now: Date.now(),
            holdMs: HOLD_MS,
          });
          if (!reservation.granted) return;
          calls++;
          const answer = Math.min(reservation.maxTokens, 200 + ((seed * 31 + i * 17) % 500));
          const amount = estimate + ((seed + i) % (estimateError + 1)) + answer;
          await store.budgets.settle([{ key, windowStart: 0, amount, held: reservation.held[0]! }]);
        }
      };
      await Promise.all([spender(a, 1), spender(b, 2), spender(c, 3)]);
      const [spent] = await a.budgets.spent([{ key, windowStart: 0 }]);
      console.log(`${engine.name}: ${calls} calls by three processes spent ${spent} of a ${limit}-token budget (over by ${Math.max(0, spent! - limit)})`);
      expect(calls).toBeGreaterThan(20);
      expect(spent).toBeLessThanOrEqual(limit + estimateError);
      expect(spent).toBeGreaterThan(limit - 64 - estimate - estimateError);
    });
  },
);

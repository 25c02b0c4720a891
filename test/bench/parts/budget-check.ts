import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ModelRequest } from "../../../src/agent/model.js";
import { promptTokens } from "../../../src/agent/prompt-tokens.js";
import { silentLogger } from "../../../src/log.js";
import { Budgets } from "../../../src/runner/budgets/budgets.js";
import { SqliteStore } from "../../../src/store/sqlite/sqlite-store.js";
import { round } from "../support/stats.js";
import type { BenchPart } from "../types.js";

const GOAL_CHECK_US = 30;

/**
 * The check before a model call (issue 25) on SQLite: the call's prompt counted (its messages
 * cached, as on every call of a turn after the first) and its cost reserved against three budgets
 * (the workspace's day and month, the channel's day) — from the process's slice of them, taken
 * from the store once per slice — in CPU microseconds per call. Settling after the call (a write of
 * its real cost) is reported beside it, without a goal.
 */
export const budgetCheckPart: BenchPart = {
  id: "budgets",
  title: "10. Budget check before each model call (SQLite): CPU per call",
  async run({ quick }) {
    const dir = mkdtempSync(join(tmpdir(), "agent-bot-bench-budgets-"));
    const store = SqliteStore.open(join(dir, "bot.sqlite"));
    try {
      const budgets = new Budgets({
        repository: store.budgets,
        defaults: [
          { scope: "workspace", period: "day", unit: "tokens", amount: 1e12, source: "DAILY_TOKEN_BUDGET" },
          { scope: "workspace", period: "month", unit: "usd", amount: 1e9, source: "MONTHLY_BUDGET" },
          { scope: "channel", period: "day", unit: "tokens", amount: 1e12, source: "CHANNEL_DAILY_TOKEN_BUDGET" },
        ],
        prices: { "gpt-4o-mini": { input: 0.15, output: 0.6 } },
        logger: silentLogger(),
      });
      const budget = budgets.forCall({ platform: "bench", workspaceId: "w1", channelId: "c1", userId: "u1", timeZone: "UTC" });
      const request: ModelRequest = {
        messages: [
          { role: "system", content: "You are a helpful assistant. ".repeat(40) },
          { role: "user", content: "What is the weather like in Paris today, and what should I wear? ".repeat(5) },
        ],
      };
      const usage = { promptTokens: 500, completionTokens: 100, totalTokens: 600 };
      const calls = quick ? 200 : 5_000;
      const warmup = quick ? 20 : 500;
      // A call's check and, after it, its settling: with the call's real usage (a write), or none (a
      // call that failed: nothing to write, its reservation back in the process's slice).
      const callOnce = async (used: typeof usage | undefined) => {
        const permit = await budget.reserve({ model: "gpt-4o-mini", countPromptTokens: () => promptTokens(request, "gpt-4o-mini") });
        if (!permit.allowed) throw new Error(`the bench's budget refused a call: ${permit.notice}`);
        await permit.settle(used);
      };
      for (let i = 0; i < warmup; i++) await callOnce(usage);
      // Whole loops are timed (the CPU clock's ticks are coarser than one check): checks alone, then checks with their settling.
      const checking = process.cpuUsage();
      for (let i = 0; i < calls; i++) await callOnce(undefined);
      const checked = process.cpuUsage(checking);
      const settling = process.cpuUsage();
      for (let i = 0; i < calls; i++) await callOnce(usage);
      const settled = process.cpuUsage(settling);
      const checkUs = checked.user + checked.system;
      const settleUs = Math.max(0, settled.user + settled.system - checkUs);
      const check = checkUs / calls;
      return {
        figures: [
          {
            key: "budget_check_cpu_us",
            label: "check before a call: prompt counted, cost reserved (3 budgets)",
            value: round(check),
            unit: "µs",
            goal: `≤ ${GOAL_CHECK_US}`,
            met: check <= GOAL_CHECK_US,
          },
          { key: "budget_settle_cpu_us", label: "settling a call's real cost after it", value: round(settleUs / calls), unit: "µs" },
        ],
        detail: { calls, budgets: 3 },
      };
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

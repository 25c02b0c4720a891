import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CallBudget } from "../../src/agent/call-budget.js";
import { silentLogger } from "../../src/log.js";
import { BudgetAlerts, type AlertSurface } from "../../src/runner/budgets/budget-alerts.js";
import { Budgets, type BudgetSubject } from "../../src/runner/budgets/budgets.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";

/** A platform that records what it was asked to post, in channels and to people. */
class RecordingSurface implements AlertSurface {
  readonly platform = "test";
  readonly posts: string[] = [];
  render = (markdown: string) => markdown;
  async post(to: { location: { channelId: string } }, text: string): Promise<unknown> {
    this.posts.push(`#${to.location.channelId}: ${text}`);
    return {};
  }
  async directMessage(userId: string, text: string): Promise<void> {
    this.posts.push(`@${userId}: ${text}`);
  }
}

const subject: BudgetSubject = { platform: "test", workspaceId: "w1", channelId: "c1", userId: "u1", timeZone: "UTC" };
const tokens = (prompt: number, completion: number) => ({ promptTokens: prompt, completionTokens: completion, totalTokens: prompt + completion });

/** One call of `promptTokens` that answers with `answer` tokens; what it was allowed, or the notice that refused it. */
async function call(budget: CallBudget, promptTokens: number, answer: number): Promise<number | string | undefined> {
  const permit = await budget.reserve({ model: "gpt-4o-mini", countPromptTokens: () => promptTokens });
  if (!permit.allowed) return permit.notice;
  await permit.settle(tokens(promptTokens, Math.min(answer, permit.maxTokens ?? answer)));
  return permit.maxTokens;
}

describe("budget windows and alerts", () => {
  let dir: string;
  let stores: SqliteStore[];
  let now: number;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "agent-bot-budgets-"));
    stores = [SqliteStore.open(join(dir, "bot.sqlite")), SqliteStore.open(join(dir, "bot.sqlite"))];
    now = Date.UTC(2026, 0, 31, 23, 0);
  });
  afterEach(async () => {
    for (const store of stores) await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A process's budgets, on the shared file, with the test's clock. */
  const budgetsOf = (store: SqliteStore, surface?: RecordingSurface, adminIds: string[] = []) => {
    const alerts = new BudgetAlerts({ repository: store.budgets, settings: store.workspaceSettings, adminIds, logger: silentLogger(), now: () => now });
    if (surface) alerts.addSurface(surface);
    return new Budgets({
      repository: store.budgets,
      defaults: [
        { scope: "channel", period: "day", unit: "tokens", amount: 1_000, source: "CHANNEL_DAILY_TOKEN_BUDGET" },
        { scope: "workspace", period: "month", unit: "tokens", amount: 1_500, source: "MONTHLY_TOKEN_BUDGET" },
      ],
      prices: {},
      logger: silentLogger(),
      alerts,
      now: () => now,
    });
  };

  it("a day's budget comes back at midnight, a month's on the first (UTC, a fake clock)", async () => {
    const budget = budgetsOf(stores[0]!).forCall(subject);
    expect(await call(budget, 500, 500)).toBe(500);
    expect(await call(budget, 100, 100)).toBe("I stopped here: the daily budget of <#c1> (1,000 tokens) is used up until 2026-02-01 00:00 UTC.");

    now = Date.UTC(2026, 1, 1, 0, 0, 1);
    // A new day: the channel's 1,000 again, but January's 1,000 of the month's 1,500 does not count in February either.
    expect(await call(budget, 400, 300)).toBe(600);
    now = Date.UTC(2026, 1, 2, 9);
    // The channel's new day leaves 600 after the prompt; the month's 1,500 less February's 700, only 400.
    expect(await call(budget, 400, 400)).toBe(400);
    expect(await call(budget, 100, 100)).toBe("I stopped here: this workspace's monthly budget (1,500 tokens) is used up until 2026-03-01 00:00 UTC.");
    now = Date.UTC(2026, 2, 1);
    expect(await call(budget, 100, 100)).toBe(900);
  });

  it("tells the admins once at 80% and once at 100% of a budget, whichever process crosses it", async () => {
    const surface = new RecordingSurface();
    const first = budgetsOf(stores[0]!, surface, ["admin1", "admin2"]).forCall(subject);
    const second = budgetsOf(stores[1]!, surface, ["admin1", "admin2"]).forCall(subject);

    await call(first, 400, 350); // 750 of the channel's 1,000
    expect(surface.posts).toEqual([]);
    await call(second, 40, 20); // 810: 80%
    await call(first, 20, 50); // 880: still 80%, said already
    expect(surface.posts).toEqual([
      "@admin1: Budget alert: the daily budget of <#c1> is 80% used.",
      "@admin2: Budget alert: the daily budget of <#c1> is 80% used.",
    ]);

    surface.posts.length = 0;
    await stores[0]!.workspaceSettings.set(subject, "budgetAlertsChannel", "ops", "admin1");
    // The other process looks at the settings' version once per turn of the event loop.
    await new Promise((resolve) => setImmediate(resolve));
    await call(second, 50, 100); // 1,000: 100%; the workspace's month passes 80% of 1,500 later
    expect(surface.posts).toEqual(["#ops: Budget reached: the daily budget of <#c1> is used up."]);

    // The next day the channel's alerts may come again; the month's 80% is reached once.
    now += 24 * 60 * 60 * 1000;
    surface.posts.length = 0;
    await call(first, 100, 800);
    expect(surface.posts).toEqual(["#ops: Budget alert: the daily budget of <#c1> is 80% used."]);
  });
});

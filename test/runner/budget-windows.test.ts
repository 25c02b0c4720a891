import { describe, expect, it } from "vitest";
import { budgetTimeZone, windowStart } from "../../src/runner/budgets/budget-windows.js";

describe("budget windows (src/runner/budgets/budget-windows.ts)", () => {
  // 2026-12-01 20:30 UTC is already 2 December in Tokyo (UTC+9).
  const evening = Date.UTC(2026, 11, 1, 20, 30);

  it("follows the workspace's /settings timezone, and UTC where none is set", () => {
    expect(budgetTimeZone({})).toBe("UTC");
    expect(budgetTimeZone({ timeZone: "Asia/Tokyo" })).toBe("Asia/Tokyo");
  });

  it("starts a workspace's day and month at its own midnight", () => {
    expect(windowStart("day", evening, budgetTimeZone({}))).toBe(Date.UTC(2026, 11, 1));
    expect(windowStart("day", evening, budgetTimeZone({ timeZone: "Asia/Tokyo" }))).toBe(Date.UTC(2026, 11, 1, 15));
    expect(windowStart("month", Date.UTC(2026, 10, 30, 20), budgetTimeZone({ timeZone: "Asia/Tokyo" }))).toBe(Date.UTC(2026, 10, 30, 15));
  });
});

import type { Config } from "../../config/env.js";
import type { BudgetAmount } from "../../store/budget-store.js";
import type { DefaultBudget } from "./budgets.js";

type BudgetVariables = Pick<
  Config,
  "DAILY_TOKEN_BUDGET" | "DAILY_USER_TOKEN_BUDGET" | "DAILY_BUDGET" | "MONTHLY_BUDGET" | "MONTHLY_TOKEN_BUDGET" | "CHANNEL_DAILY_TOKEN_BUDGET"
>;

/** The budgets the environment sets for every workspace, channel and user (admins override each). */
export function budgetDefaults(config: BudgetVariables): DefaultBudget[] {
  const tokens = (amount: number | undefined): BudgetAmount | undefined => (amount === undefined ? undefined : { unit: "tokens", amount });
  const candidates: [DefaultBudget["scope"], DefaultBudget["period"], [string, BudgetAmount | undefined][]][] = [
    [
      "workspace",
      "day",
      [
        ["DAILY_BUDGET", config.DAILY_BUDGET],
        ["DAILY_TOKEN_BUDGET", tokens(config.DAILY_TOKEN_BUDGET)],
      ],
    ],
    [
      "workspace",
      "month",
      [
        ["MONTHLY_BUDGET", config.MONTHLY_BUDGET],
        ["MONTHLY_TOKEN_BUDGET", config.MONTHLY_TOKEN_BUDGET],
      ],
    ],
    ["channel", "day", [["CHANNEL_DAILY_TOKEN_BUDGET", config.CHANNEL_DAILY_TOKEN_BUDGET]]],
    ["user", "day", [["DAILY_USER_TOKEN_BUDGET", tokens(config.DAILY_USER_TOKEN_BUDGET)]]],
  ];
  return candidates.flatMap(([scope, period, sources]) => {
    const found = sources.find(([, amount]) => amount !== undefined);
    return found ? [{ scope, period, ...found[1]!, source: found[0] }] : [];
  });
}

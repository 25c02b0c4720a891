import type { BudgetAmount } from "../store/budget-store.js";

/**
 * A budget as people write it: tokens ("50000", "50k", "2M", "50000 tokens") or dollars ("$5",
 * "5 USD", "$2.50"). Undefined for anything else.
 */
export function parseBudgetAmount(text: string): BudgetAmount | undefined {
  const trimmed = text.trim().replace(/,/g, "");
  const money = /^\$\s*(\d+(?:\.\d+)?)$/.exec(trimmed) ?? /^(\d+(?:\.\d+)?)\s*(?:usd|\$)$/i.exec(trimmed);
  if (money) {
    const amount = Number(money[1]);
    return amount > 0 ? { unit: "usd", amount } : undefined;
  }
  const tokens = /^(\d+(?:\.\d+)?)\s*([km]?)\s*(?:tokens?)?$/i.exec(trimmed);
  if (!tokens) return undefined;
  const scale = { "": 1, k: 1_000, m: 1_000_000 }[tokens[2]!.toLowerCase() as "" | "k" | "m"];
  const amount = Math.round(Number(tokens[1]) * scale);
  return amount > 0 ? { unit: "tokens", amount } : undefined;
}

export function formatAmount(amount: BudgetAmount): string {
  return amount.unit === "usd" ? `$${formatDollars(amount.amount)}` : `${Math.round(amount.amount).toLocaleString("en-US")} tokens`;
}

/** Cents for sums from a cent up, more digits below (a call costs fractions of a cent). */
function formatDollars(amount: number): string {
  return amount >= 0.01 || amount === 0 ? amount.toFixed(2) : amount.toPrecision(2);
}

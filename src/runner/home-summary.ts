import { formatAmount } from "../config/budget-amount.js";
import type { SuggestedPrompt } from "../contract/link.js";
import type { UsageReportStore } from "../store/usage-report-store.js";
import type { WorkspaceSettingsStore } from "../store/store.js";
import type { WorkspaceRef } from "../store/types.js";
import { budgetTimeZone, windowStart } from "./budgets/budget-windows.js";
import type { Budgets } from "./budgets/budgets.js";
import type { ToolState } from "../contract/commands.js";

export interface HomeSummariesOptions {
  budgets: Budgets;
  usage: UsageReportStore;
  settings: WorkspaceSettingsStore;
  now?: () => number;
}

/** Slack allows up to four suggested prompts in an assistant thread. */
const MAX_PROMPTS = 4;

/** Up to four prompts, one per tool enabled in the workspace that has an example question; a general one where none has. */
export function suggestedPrompts(states: readonly ToolState[]): SuggestedPrompt[] {
  const prompts = states
    .filter((state) => state.enabled && state.example)
    .slice(0, MAX_PROMPTS)
    .map((state) => ({ title: titleOf(state.name), message: state.example! }));
  return prompts.length > 0 ? prompts : [{ title: "What can you do?", message: "What can you do here, and which tools can you use?" }];
}

/** "convert_currency" → "Convert currency". */
const titleOf = (tool: string) => {
  const words = tool.replace(/[_-]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/**
 * What a person's own page shows them (Slack's App Home): what they spent today, in the
 * workspace's day, and what their daily budgets leave them.
 */
export class HomeSummaries {
  private readonly now: () => number;

  constructor(private readonly options: HomeSummariesOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Markdown: today's tokens and each daily budget's remainder. */
  async usage(workspace: WorkspaceRef, userId: string): Promise<string> {
    const timeZone = budgetTimeZone(await this.options.settings.get(workspace));
    const today = windowStart("day", this.now(), timeZone);
    const [tokens, daily] = await Promise.all([
      this.options.usage.userTokensSince(workspace, userId, today),
      this.options.budgets.userDay({ ...workspace, channelId: "", userId, timeZone }),
    ]);
    const lines = [`**Your usage today** (${timeZone}): ${tokens.toLocaleString("en-US")} tokens.`];
    if (daily.length === 0) lines.push("No daily budget limits what you may spend here.");
    for (const { budget, spent } of daily) {
      const left = { unit: budget.unit, amount: Math.max(0, budget.amount - spent) };
      lines.push(`Your daily budget: ${formatAmount(left)} left of ${formatAmount(budget)} (${budget.source}).`);
    }
    return lines.join("\n");
  }
}

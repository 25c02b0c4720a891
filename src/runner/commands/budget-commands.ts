import type { BudgetCommand } from "../../contract/commands.js";
import { formatAmount, parseBudgetAmount } from "../../config/budget-amount.js";
import type { WorkspaceSettingsStore } from "../../store/store.js";
import type { BudgetStore, BudgetSlot } from "../../store/budget-store.js";
import type { ConversationRef } from "../../store/types.js";
import type { Budgets } from "../budgets/budgets.js";
import { budgetTimeZone } from "../budgets/budget-windows.js";
import { settingsChannelOf } from "../channel-policy.js";
import type { ModelPrices } from "../usage-report.js";
import { channelMention } from "./workspace-settings-commands.js";

export interface BudgetCommandsOptions {
  budgets: Budgets;
  repository: BudgetStore;
  settings: WorkspaceSettingsStore;
  prices: ModelPrices;
  /** The models turns may use (OPENAI_MODELS): a budget in dollars needs a price for each. */
  models: readonly string[];
}

const CLEAR = /^(clear|none|default|reset|unlimited)$/i;

/** Sets and clears budgets and the alerts channel, and lists the budgets that apply somewhere. */
export class BudgetCommands {
  constructor(private readonly options: BudgetCommandsOptions) {}

  async execute(command: BudgetCommand, where: ConversationRef, actorId: string): Promise<{ ok: boolean; text: string }> {
    if (command.kind === "settings_alerts_channel") {
      const channel = command.channel === undefined ? settingsChannelOf(where).channelId : command.channel;
      await this.options.settings.set(where, "budgetAlertsChannel", channel ?? undefined, actorId);
      return { ok: true, text: channel ? `Budget alerts now go to ${channelMention(channel)}.` : "Budget alerts now go to each admin by direct message." };
    }
    const subject = command.scope === "workspace" ? "" : command.scope === "channel" ? settingsChannelOf(where).channelId : (command.user ?? "*");
    const slot: BudgetSlot = { scope: command.scope, subject, period: command.period };
    const whose =
      command.scope === "workspace"
        ? "this server's"
        : command.scope === "channel"
          ? `${channelMention(subject)}'s`
          : subject === "*"
            ? "each member's"
            : `<@${subject}>'s`;
    const period = command.period === "day" ? "daily" : "monthly";
    if (CLEAR.test(command.amount.trim())) {
      await this.options.repository.setLimit(where, slot, undefined, actorId);
      return { ok: true, text: `Cleared ${whose} ${period} budget (the default applies again, if one is set).` };
    }
    const amount = parseBudgetAmount(command.amount);
    if (!amount) return { ok: false, text: `I can't read "${command.amount}" as a budget: write tokens ("50000", "50k") or dollars ("$5", "5 USD").` };
    if (amount.unit === "usd") {
      const unpriced = this.options.models.filter((model) => !this.options.prices[model]);
      if (unpriced.length > 0) {
        return {
          ok: false,
          text: `A budget in dollars needs each model's price, and MODEL_PRICES has none for ${unpriced.join(", ")}. Set one, or give the budget in tokens.`,
        };
      }
    }
    await this.options.repository.setLimit(where, slot, amount, actorId);
    return { ok: true, text: `Set ${whose} ${period} budget to ${formatAmount(amount)}. Every model call is checked against it from now on.` };
  }

  /** The budgets that apply to `actorId` here, their use and their source (`/settings show`, `/usage`). */
  async describe(where: ConversationRef, actorId: string): Promise<string> {
    const timeZone = budgetTimeZone(await this.options.settings.get(where));
    const lines = await this.options.budgets.describe({ ...where, channelId: settingsChannelOf(where).channelId, userId: actorId, timeZone });
    return lines.join("\n");
  }
}

import type { Logger } from "../../log.js";
import type { WorkspaceSettingsStore } from "../../store/store.js";
import type { WorkspaceRef } from "../../store/types.js";
import type { BudgetRepository, BudgetScope } from "../../store/budget-repository.js";

/** A budget as its alerts need it: which it is, in which window, and its limit. */
interface WatchedBudget {
  scope: BudgetScope;
  key: string;
  windowStart: number;
  amount: number;
}

/** Where a budget alert goes: the alerts channel, or a direct message to each admin. */
type AlertTarget = { channelId: string } | { userId: string };

/** Sends a message outside any turn (the platforms give one; none: alerts go to the log only). */
export type AlertSender = (workspace: WorkspaceRef, target: AlertTarget, text: string) => Promise<void>;

export interface BudgetAlertsOptions {
  repository: BudgetRepository;
  settings: WorkspaceSettingsStore;
  /** BOT_ADMIN_USER_IDS: told by direct message where no alerts channel is set. */
  adminIds: readonly string[];
  logger: Logger;
  now?: () => number;
}

/** Per cent of a budget at which admins hear of it. */
const LEVELS = [80, 100] as const;

/**
 * At 80% and 100% of a workspace's or channel's budget, one notice per budget, window and level
 * (whichever process crosses it first records it, in the store), to the admins: in the alerts
 * channel where one is set, else by direct message to each admin, else in the log only.
 */
export class BudgetAlerts {
  private sender: AlertSender | undefined;

  constructor(private readonly options: BudgetAlertsOptions) {}

  /** The platforms' way to send (set once they are connected). */
  sendWith(sender: AlertSender): void {
    this.sender = sender;
  }

  async check(workspace: WorkspaceRef, spends: readonly { budget: WatchedBudget; label: string; before: number; after: number }[]): Promise<void> {
    for (const { budget, label, before, after } of spends) {
      if (budget.scope === "user") continue;
      for (const level of LEVELS) {
        const mark = (budget.amount * level) / 100;
        if (!(before < mark && after >= mark)) continue;
        if (!(await this.options.repository.claimAlert(budget.key, budget.windowStart, level, (this.options.now ?? Date.now)()))) continue;
        await this.send(workspace, level === 100 ? `Budget reached: ${label} is used up.` : `Budget alert: ${label} is ${level}% used.`);
      }
    }
  }

  private async send(workspace: WorkspaceRef, text: string): Promise<void> {
    const { logger, adminIds, settings } = this.options;
    logger.warn({ platform: workspace.platform, workspace: workspace.workspaceId, alert: text }, "budget alert");
    if (!this.sender) return;
    const channelId = (await settings.get(workspace)).budgetAlertsChannel;
    const targets: AlertTarget[] = channelId ? [{ channelId }] : adminIds.map((userId) => ({ userId }));
    for (const target of targets) {
      try {
        await this.sender(workspace, target, text);
      } catch (error) {
        logger.warn({ err: error, target }, "could not send a budget alert");
      }
    }
  }
}

import type { Logger } from "../../log.js";
import type { WorkspaceSettingsStore } from "../../store/store.js";
import type { WorkspaceRef } from "../../store/types.js";
import type { BudgetStore } from "../../store/budget-store.js";
import type { BudgetScope } from "../../contract/commands.js";

/** A budget as its alerts need it: which it is, in which window, and its limit. */
interface WatchedBudget {
  scope: BudgetScope;
  key: string;
  windowStart: number;
  amount: number;
}

/** Where a platform lets the core post outside any turn: in a channel, or (where it can) to one person. */
export interface AlertSurface {
  readonly platform: string;
  render(markdown: string): string;
  post(to: { location: { channelId: string } }, text: string, options: { kind: "answer" }): Promise<unknown>;
  directMessage?(userId: string, text: string): Promise<void>;
}

export interface BudgetAlertsOptions {
  repository: BudgetStore;
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
  private readonly surfaces = new Map<string, AlertSurface>();

  constructor(private readonly options: BudgetAlertsOptions) {}

  /** A platform that connected: its workspaces' alerts go through it. */
  addSurface(surface: AlertSurface): void {
    this.surfaces.set(surface.platform, surface);
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
    const surface = this.surfaces.get(workspace.platform);
    if (!surface) return;
    const channelId = (await settings.get(workspace)).budgetAlertsChannel;
    const sends = channelId
      ? [() => surface.post({ location: { channelId } }, surface.render(text), { kind: "answer" })]
      : surface.directMessage
        ? adminIds.map((userId) => () => surface.directMessage!(userId, surface.render(text)))
        : [];
    for (const send of sends) {
      try {
        await send();
      } catch (error) {
        logger.warn({ err: error, workspace: workspace.workspaceId }, "could not send a budget alert");
      }
    }
  }
}

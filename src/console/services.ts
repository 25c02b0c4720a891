import type { Logger } from "../log.js";
import type { ApprovalDesk } from "../runner/approvals/approval-desk.js";
import type { Budgets } from "../runner/budgets/budgets.js";
import type { ChannelPolicies } from "../runner/channel-policy.js";
import type { BotCommands } from "../runner/commands/bot-commands.js";
import type { ToolAccess } from "../runner/tool-access.js";
import type { ModelPrices, UsageReports } from "../runner/usage-report.js";
import type { Store } from "../store/store.js";
import type { SignInProvider } from "./sign-in/provider.js";
import type { RoleSource } from "./viewer.js";

/** A connected platform as the overview shows it. */
interface PlatformStatus {
  name: string;
  health(): { connected: boolean; detail?: string };
}

/**
 * The core services the console reads and acts through: the same ones the slash commands use
 * (the commands themselves for every change), never a second implementation.
 */
export interface ConsoleServices {
  /** Read directly for what pages show; every change goes through `commands`. */
  store: Pick<Store, "engine" | "audit" | "usageReports" | "schedules" | "workspaceSettings" | "channelSettings" | "budgets" | "approvals" | "consoleSessions">;
  commands: BotCommands;
  /** The requests for approval waiting in this process: decided with the platforms' own rule. */
  approvals: Pick<ApprovalDesk, "decide">;
  policies: ChannelPolicies;
  access: ToolAccess;
  usage: UsageReports;
  budgets: Budgets;
  prices: ModelPrices;
  platforms(): readonly PlatformStatus[];
  /** Turns running in this process. */
  inFlight(): number;
  /** Members' roles as the platforms see them, for those signed in through one. */
  roles: RoleSource;
  logger: Logger;
  now?: () => number;
}

export interface ConsoleSettings {
  port: number;
  host: string;
  token?: string;
  publicUrl?: string;
  sessionHours: number;
  /** Sign-in through platforms (Discord, Slack), for their server and workspace admins. */
  providers: readonly SignInProvider[];
}

import type { PlatformConnection, PlatformInbox, PlatformLink } from "../contract/link.js";
import type { ChatSurface } from "../contract/surface.js";
import type { RestartNotices } from "./restart-notices.js";
import type { ToolAccess } from "./tool-access.js";
import type { ApprovalDesk } from "./approvals/approval-desk.js";
import type { BotCommands } from "./commands/bot-commands.js";
import type { BudgetAlerts } from "./budgets/budget-alerts.js";
import type { FeedbackDesk } from "./feedback-desk.js";
import { suggestedPrompts, type HomeSummaries } from "./home-summary.js";
import type { HistoryBackfills } from "./history-backfill.js";
import { parseCommandText } from "./commands/command-text.js";
import { commandHelp } from "./commands/help.js";
import { conversationOf, type MessageIntake } from "./intake.js";

/** Told of each platform as it connects: the scheduler posts its runs through the surface and hands them to the inbox. */
export interface PlatformOutlets {
  attach(surface: ChatSurface, inbox: PlatformInbox): void;
}

export interface PlatformLinksOptions {
  intake: MessageIntake;
  outlets?: PlatformOutlets;
  commands: BotCommands;
  access: ToolAccess;
  approvals: ApprovalDesk;
  feedback: FeedbackDesk;
  home: HomeSummaries;
  models: readonly string[];
  /** Where a connected platform's restart notices are posted from. */
  notices?: RestartNotices;
  /** Budget alerts go out through the platforms that connect. */
  alerts?: BudgetAlerts;
  /** History backfills read channels through the platforms that connect (and resume theirs). */
  backfills?: HistoryBackfills;
}

/** Connects platforms to the core: one intake, one set of commands, one tool catalogue, one approval desk. */
export class PlatformLinks {
  constructor(private readonly options: PlatformLinksOptions) {}

  connect(connection: PlatformConnection): PlatformLink {
    const { intake, commands, access, approvals, feedback, home, models } = this.options;
    const inbox = intake.connect(connection.surface, {
      allowDms: connection.allowDms,
      deliversOnce: connection.deliversOnce,
      content: connection.content,
      messageLink: connection.messageLink,
      readableChannel: connection.readableChannel,
    });
    this.options.notices?.connect(connection.surface);
    this.options.outlets?.attach(connection.surface, inbox);
    this.options.alerts?.addSurface(connection.surface);
    this.options.backfills?.attach(connection.surface, connection.channelHistory);
    const help = () => commandHelp({ commandName: connection.commandName, roles: connection.hasRoles, soleOperator: connection.soleOperator });
    const runCommand: PlatformLink["runCommand"] = async (command, from) => {
      if (command.kind === "help") return { ok: true, text: help() };
      const where = { ...conversationOf(from, false), parentChannelId: from.parentChannelId };
      const result = await commands.execute(command, where, {
        userId: from.actor.id,
        role: from.actor.operator ? "admin" : from.actor.role,
        isDm: from.isDm,
      });
      return result.denied ? { ...result, text: `${result.text} ${connection.roleNames[result.denied]}` } : result;
    };
    return {
      receive: inbox.receive,
      stop: inbox.stop,
      deleted: inbox.deleted,
      edited: inbox.edited,
      parseCommand: (text) => parseCommandText(text, { roles: connection.hasRoles }),
      help,
      toolStates: (from) => access.states(from),
      models: () => models,
      decideApproval: (press) => approvals.decide(press),
      recordFeedback: (press) => feedback.record(press),
      runCommand,
      suggestedPrompts: async (from) => suggestedPrompts(await access.states(from)),
      home: async (from) => {
        const usage = await home.usage(from, from.actor.id);
        if (!from.actor.operator && from.actor.role !== "admin") return { usage };
        const admin = await Promise.all(["settings show", "tools list"].map(async (text) => (await runCommand(parseCommandText(text)!, from)).text));
        return { usage, admin: admin.join("\n\n") };
      },
    };
  }
}

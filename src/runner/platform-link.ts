import type { ChatSurface } from "../presenter/surface.js";
import type { ToolAccess, ToolState } from "./tool-access.js";
import type { ApprovalDesk } from "./approvals/approval-desk.js";
import type { ApprovalAnswer, ApprovalPress } from "./approvals/approval-types.js";
import type { BotCommands, CommandResult } from "./commands/bot-commands.js";
import type { BotCommand, CommandGroup } from "./commands/catalog.js";
import { parseCommandText } from "./commands/command-text.js";
import { commandHelp } from "./commands/help.js";
import { conversationOf, type MessageIntake, type MessageLinker, type PlatformInbox } from "./intake.js";
import type { IncomingCommand, SharedContentSource } from "./incoming.js";

/** What a platform tells the core about itself when it connects. */
export interface PlatformConnection {
  surface: ChatSurface;
  /** Answer direct messages. */
  allowDms: boolean;
  /** The platform has roles (ignored roles are offered). */
  hasRoles: boolean;
  /** How the platform spells each command group ("/tools", or a renamed Slack command). */
  commandName(group: CommandGroup): string;
  /** What each role means here, for a refusal ("the Manage Server permission"). */
  roleNames: Record<"admin" | "moderator", string>;
  /** Fetches the files (and earlier messages of reply chains) questions share; without it they are named only. */
  content?: SharedContentSource;
  /** The link people open a message with, for search results (none on the terminal). */
  messageLink?: MessageLinker;
}

/** The core as one platform sees it: the narrow services an adapter may use, and nothing else. */
export interface PlatformLink extends PlatformInbox {
  /** Reads the text form of a command ("tools enable NAME"); undefined when it is not one. */
  parseCommand(text: string): BotCommand | undefined;
  /** Runs a command for the person who gave it; Markdown meant for them alone. */
  runCommand(command: BotCommand, from: IncomingCommand): Promise<CommandResult>;
  /** Every command, one line each, in this platform's spelling. */
  help(): string;
  /** The tools and their state in a workspace (for autocomplete). */
  toolStates(from: IncomingCommand): Promise<ToolState[]>;
  /** The models an admin may choose for a channel (for autocomplete). */
  models(): readonly string[];
  /**
   * A press on a request for approval's Approve or Deny (or a typed yes/no). The core decides who
   * may; the platform shows the answer: in place of the request's controls, or to the presser alone.
   */
  decideApproval(press: ApprovalPress): Promise<ApprovalAnswer>;
}

export interface PlatformLinksOptions {
  intake: MessageIntake;
  commands: BotCommands;
  access: ToolAccess;
  approvals: ApprovalDesk;
  models: readonly string[];
}

/** Connects platforms to the core: one intake, one set of commands, one tool catalogue, one approval desk. */
export class PlatformLinks {
  constructor(private readonly options: PlatformLinksOptions) {}

  connect(connection: PlatformConnection): PlatformLink {
    const { intake, commands, access, approvals, models } = this.options;
    const inbox = intake.connect(connection.surface, { allowDms: connection.allowDms, content: connection.content, messageLink: connection.messageLink });
    const help = () => commandHelp({ commandName: connection.commandName, roles: connection.hasRoles });
    return {
      receive: inbox.receive,
      deleted: inbox.deleted,
      edited: inbox.edited,
      parseCommand: (text) => parseCommandText(text, { roles: connection.hasRoles }),
      help,
      toolStates: (from) => access.states(from),
      models: () => models,
      decideApproval: (press) => approvals.decide(press),
      runCommand: async (command, from) => {
        if (command.kind === "help") return { ok: true, text: help() };
        const where = { ...conversationOf(from, false), parentChannelId: from.parentChannelId };
        const result = await commands.execute(command, where, {
          userId: from.actor.id,
          role: from.actor.operator ? "admin" : from.actor.role,
          isDm: from.isDm,
        });
        return result.denied ? { ...result, text: `${result.text} ${connection.roleNames[result.denied]}` } : result;
      },
    };
  }
}

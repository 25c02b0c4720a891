import type { CommandActor } from "../runner/commands/bot-commands.js";
import { mayRunCommand } from "../runner/commands/bot-commands.js";
import type { BotCommand } from "../runner/commands/catalog.js";
import type { WorkspaceRef } from "../store/types.js";

/** Who is signed in to the console. The operator (CONSOLE_TOKEN) is an admin of every workspace. */
export interface Viewer {
  /** Shown in the header and recorded as who changed a setting. */
  userId: string;
  operator: boolean;
}

export const OPERATOR: Viewer = { userId: "console-operator", operator: true };

/** The viewer as the commands see an actor in one workspace, asked again on every request. */
export function actorIn(viewer: Viewer, _workspace: WorkspaceRef): CommandActor {
  return { userId: viewer.userId, role: viewer.operator ? "admin" : "member" };
}

/** The commands' own rule, per request: may this viewer run `command` in this workspace? */
const mayIn = (viewer: Viewer, workspace: WorkspaceRef, command: BotCommand) => mayRunCommand(command, actorIn(viewer, workspace));

/** What every page of a workspace asks first: the same rule as `/usage` (admins only). */
export const mayAdminister = (viewer: Viewer, workspace: WorkspaceRef) => mayIn(viewer, workspace, { kind: "usage_show" });

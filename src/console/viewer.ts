import type { Role } from "../contract/inbound.js";
import { mayRunCommand, type CommandActor } from "../runner/commands/bot-commands.js";
import type { WorkspaceRef } from "../store/types.js";

/** Who is signed in to the console. The operator (CONSOLE_TOKEN) is an admin of every workspace. */
export interface Viewer {
  /** Recorded as who changed a setting. */
  userId: string;
  operator: boolean;
  /** Signed in through a platform: which, and the workspaces the sign-in listed (Discord's servers, the Slack workspace). */
  platform?: string;
  workspaceIds?: readonly string[];
  /** Shown in the header. */
  name?: string;
}

export const OPERATOR: Viewer = { userId: "console-operator", operator: true, name: "the operator" };

/** The bot's own view of a member's role in a workspace (see MemberRoles). */
export interface RoleSource {
  roleOf(platform: string, workspaceId: string, userId: string): Promise<Role | undefined>;
}

/**
 * The viewer as the commands see an actor in one workspace, asked again on every request (a
 * permission taken away on the platform counts at once): undefined when they are no member there.
 */
export async function actorIn(viewer: Viewer, workspace: WorkspaceRef, roles: RoleSource): Promise<CommandActor | undefined> {
  if (viewer.operator) return { userId: viewer.userId, role: "admin" };
  if (viewer.platform !== workspace.platform || !viewer.workspaceIds?.includes(workspace.workspaceId)) return undefined;
  const role = await roles.roleOf(workspace.platform, workspace.workspaceId, viewer.userId);
  return role ? { userId: viewer.userId, role } : undefined;
}

/** What every page of a workspace asks first: the commands' rule for `/usage` (admins only). */
export async function mayAdminister(viewer: Viewer, workspace: WorkspaceRef, roles: RoleSource): Promise<boolean> {
  const actor = await actorIn(viewer, workspace, roles);
  return actor !== undefined && mayRunCommand({ kind: "usage_show" }, actor);
}

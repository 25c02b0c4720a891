import { Forbidden, type PageContext } from "../context.js";
import { html, workspaceLabel, type Html } from "../html.js";
import type { WorkspaceRef } from "../../store/types.js";
import { actorIn, mayAdminister } from "../viewer.js";
import type { CommandActor } from "../../runner/commands/bot-commands.js";

/** Workspaces listed at most in a picker. */
const MAX_WORKSPACES = 500;

/** A workspace in a query string: "platform:id" (platform names have no colon). */
export const workspaceParam = (ws: WorkspaceRef) => `${ws.platform}:${ws.workspaceId}`;

export function parseWorkspace(value: string | null | undefined): WorkspaceRef | undefined {
  const at = value?.indexOf(":") ?? -1;
  if (!value || at <= 0 || at === value.length - 1) return undefined;
  return { platform: value.slice(0, at), workspaceId: value.slice(at + 1) };
}

/** The workspaces this viewer administers, by the commands' rule asked now: the operator's are every one the bot talked in. */
export async function visibleWorkspaces(context: PageContext): Promise<WorkspaceRef[]> {
  const { viewer, services } = context;
  const candidates = viewer.operator
    ? await services.store.audit.workspaces(MAX_WORKSPACES)
    : (viewer.workspaceIds ?? []).slice(0, MAX_WORKSPACES).map((workspaceId) => ({ platform: viewer.platform ?? "", workspaceId }));
  const allowed = await Promise.all(candidates.map((ws) => mayAdminister(viewer, ws, services.roles)));
  return candidates.filter((_, i) => allowed[i]);
}

/** Refuses a workspace the viewer does not administer (checked on every request). */
export async function checkWorkspace(context: PageContext, ws: WorkspaceRef): Promise<CommandActor> {
  const actor = await actorIn(context.viewer, ws, context.services.roles);
  if (!actor || !(await mayAdminister(context.viewer, ws, context.services.roles))) throw new Forbidden(`You do not administer ${workspaceLabel(ws)}.`);
  return actor;
}

/**
 * The workspace a page is about: the one asked for (checked), else the first the viewer
 * administers; undefined when there is none.
 */
export async function chosenWorkspace(context: PageContext, field = "workspace"): Promise<{ chosen?: WorkspaceRef; all: WorkspaceRef[] }> {
  const all = await visibleWorkspaces(context);
  const asked = parseWorkspace(context.url.searchParams.get(field) ?? context.form.get(field));
  if (asked) {
    await checkWorkspace(context, asked);
    return { chosen: asked, all };
  }
  return { chosen: all[0], all };
}

export function workspaceSelect(all: readonly WorkspaceRef[], chosen: WorkspaceRef | undefined, options: { any?: boolean } = {}): Html {
  const value = chosen ? workspaceParam(chosen) : "";
  return html`<label>Workspace <select name="workspace">
${options.any ? html`<option value="">all</option>` : ""}
${all.map((ws) => html`<option value="${workspaceParam(ws)}"${workspaceParam(ws) === value ? html` selected` : ""}>${workspaceLabel(ws)}</option>`)}
</select></label>`;
}

/** What a page says when the viewer administers no workspace: for one signed in through a platform, why. */
export function noWorkspace(context: PageContext): Html {
  const { viewer } = context;
  if (viewer.operator) return html`<p class="muted">The bot has not talked in any workspace yet.</p>`;
  const where = viewer.platform === "discord" ? "server" : "workspace";
  const permission = viewer.platform === "discord" ? "the Manage Server or Administrator permission" : `to be an admin or owner of the ${where}`;
  return html`<p class="problem" role="alert">You (${viewer.name ?? viewer.userId}) administer no ${where} the bot is in, so there is nothing to show.
The console shows a ${where} to those the bot's commands take for its admins: it needs ${permission} (or BOT_ADMIN_USER_IDS).</p>`;
}

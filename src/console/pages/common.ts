import { Forbidden, type PageContext } from "../context.js";
import { html, workspaceLabel, type Html } from "../html.js";
import type { WorkspaceRef } from "../../store/types.js";
import { mayAdminister } from "../viewer.js";

/** Workspaces listed at most in a picker. */
const MAX_WORKSPACES = 500;

/** A workspace in a query string: "platform:id" (platform names have no colon). */
export const workspaceParam = (ws: WorkspaceRef) => `${ws.platform}:${ws.workspaceId}`;

export function parseWorkspace(value: string | null | undefined): WorkspaceRef | undefined {
  const at = value?.indexOf(":") ?? -1;
  if (!value || at <= 0 || at === value.length - 1) return undefined;
  return { platform: value.slice(0, at), workspaceId: value.slice(at + 1) };
}

/** The workspaces this viewer administers, by the commands' rule asked now. */
export async function visibleWorkspaces(context: PageContext): Promise<WorkspaceRef[]> {
  const all = await context.services.store.audit.workspaces(MAX_WORKSPACES);
  return all.filter((ws) => mayAdminister(context.viewer, ws));
}

/** Refuses a workspace the viewer does not administer (checked on every request). */
export function checkWorkspace(context: PageContext, ws: WorkspaceRef): void {
  if (!mayAdminister(context.viewer, ws)) throw new Forbidden(`You do not administer ${workspaceLabel(ws)}.`);
}

/**
 * The workspace a page is about: the one asked for (checked), else the first the viewer
 * administers; undefined when there is none.
 */
export async function chosenWorkspace(context: PageContext, field = "workspace"): Promise<{ chosen?: WorkspaceRef; all: WorkspaceRef[] }> {
  const all = await visibleWorkspaces(context);
  const asked = parseWorkspace(context.url.searchParams.get(field) ?? context.form.get(field));
  if (asked) {
    checkWorkspace(context, asked);
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

export const noWorkspace = html`<p class="muted">The bot has not talked in any workspace you administer yet.</p>`;

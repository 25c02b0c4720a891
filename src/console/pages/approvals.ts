import type { ApprovalRow } from "../../store/audit-store.js";
import type { PageContext, PageResult } from "../context.js";
import { html, when, workspaceLabel } from "../html.js";
import { chosenWorkspace, workspaceSelect } from "./common.js";

const SHOWN = 100;

function table(rows: readonly ApprovalRow[], decided: boolean) {
  if (rows.length === 0) return html`<p class="muted">None.</p>`;
  return html`<table><thead><tr><th>Asked (UTC)</th><th>Workspace</th><th>Channel</th><th>Tool</th><th>Arguments</th><th>Asked by</th>${decided ? html`<th>Decision</th><th>By</th><th>When</th>` : ""}</tr></thead><tbody>
${rows.map(
  (
    row,
  ) => html`<tr><td><a href="/turns/${encodeURIComponent(row.turnId)}">${when(row.requestedAt)}</a></td><td>${workspaceLabel(row)}</td><td>${row.channelId}</td><td>${row.tool}</td><td><pre>${row.args}</pre></td><td>${row.askedBy}</td>
${decided ? html`<td>${row.status.replace("_", " ")}</td><td>${row.decidedBy ?? ""}</td><td>${when(row.decidedAt)}</td>` : ""}</tr>`,
)}</tbody></table>`;
}

/** Requests for approval waiting now, and the newest decided ones with who decided and when. */
export async function approvals(context: PageContext): Promise<PageResult> {
  const { chosen, all } = await chosenWorkspace(context);
  // The operator may look across every workspace; anyone else at one they administer.
  const scope = context.viewer.operator && !context.url.searchParams.get("workspace") ? undefined : chosen;
  const audit = context.services.store.audit;
  const [pending, decided] =
    scope || context.viewer.operator ? await Promise.all([audit.approvals(scope, true, SHOWN), audit.approvals(scope, false, SHOWN)]) : [[], []];
  const body = html`<form class="filters" method="get" action="/approvals">${workspaceSelect(all, scope, { any: context.viewer.operator })}<button type="submit">Show</button></form>
<h2>Pending</h2>${table(pending, false)}
<h2>Decided</h2>${table(decided, true)}`;
  return { kind: "html", title: "Approvals", path: "/approvals", body };
}

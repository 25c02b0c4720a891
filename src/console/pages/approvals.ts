import type { ApprovalRow } from "../../store/audit-store.js";
import { NotFound, type PageContext, type PageResult } from "../context.js";
import { commandAnswer, html, when, workspaceLabel } from "../html.js";
import { checkWorkspace, chosenWorkspace, workspaceSelect } from "./common.js";

const SHOWN = 100;

/** Approve and Deny on a pending request, each a form with the session's CSRF token. */
function decisionButtons(row: ApprovalRow, csrf: string) {
  const button = (decision: "approve" | "deny", label: string) =>
    html`<form class="inline" method="post" action="/approvals"><input type="hidden" name="csrf" value="${csrf}"><input type="hidden" name="id" value="${row.id}"><input type="hidden" name="decision" value="${decision}"><button type="submit"${decision === "deny" ? html` class="quiet"` : ""}>${label}</button></form>`;
  return html`<td>${button("approve", "Approve")} ${button("deny", "Deny")}</td>`;
}

function table(rows: readonly ApprovalRow[], decided: boolean, csrf: string) {
  if (rows.length === 0) return html`<p class="muted">None.</p>`;
  return html`<table><thead><tr><th>Asked (UTC)</th><th>Workspace</th><th>Channel</th><th>Tool</th><th>Arguments</th><th>Asked by</th>${decided ? html`<th>Decision</th><th>By</th><th>Where</th><th>When</th>` : html`<th>Decide</th>`}</tr></thead><tbody>
${rows.map(
  (
    row,
  ) => html`<tr data-approval="${row.id}"><td><a href="/turns/${encodeURIComponent(row.turnId)}">${when(row.requestedAt)}</a></td><td>${workspaceLabel(row)}</td><td>${row.channelId}</td><td>${row.tool}</td><td><pre>${row.args}</pre></td><td>${row.askedBy}</td>
${decided ? html`<td>${row.status.replace("_", " ")}</td><td>${row.decidedBy ?? ""}</td><td>${row.decidedVia ?? ""}</td><td>${when(row.decidedAt)}</td>` : decisionButtons(row, csrf)}</tr>`,
)}</tbody></table>`;
}

/** Requests for approval waiting now, with Approve and Deny, and the newest decided ones with who decided, where and when. */
export async function approvals(context: PageContext, notice?: { ok: boolean; text: string }): Promise<PageResult> {
  const { chosen, all } = await chosenWorkspace(context);
  // The operator may look across every workspace; anyone else at one they administer.
  const scope = context.viewer.operator && !context.url.searchParams.get("workspace") ? undefined : chosen;
  const audit = context.services.store.audit;
  const [pending, decided] =
    scope || context.viewer.operator ? await Promise.all([audit.approvals(scope, true, SHOWN), audit.approvals(scope, false, SHOWN)]) : [[], []];
  const body = html`${notice ? html`<p class="${notice.ok ? "notice" : "problem"}" role="status">${commandAnswer(notice.text)}</p>` : ""}
<form class="filters" method="get" action="/approvals">${workspaceSelect(all, scope, { any: context.viewer.operator })}<button type="submit">Show</button></form>
<h2>Pending</h2>${table(pending, false, context.csrf)}
<h2>Decided</h2>${table(decided, true, context.csrf)}`;
  return { kind: "html", title: "Approvals", path: "/approvals", body };
}

/**
 * Approve or Deny pressed in the console: the request's workspace is checked with the commands'
 * admin rule (403 otherwise), then the press goes to the same desk as the platforms' buttons, with
 * the same rule for who may decide; the waiting turn goes on as after a press on the platform, and
 * the request's message there shows the decision. Only requests waiting in this process can be
 * decided (as with a press on the platform).
 */
export async function decideApproval(context: PageContext): Promise<PageResult> {
  const decision = context.form.get("decision");
  if (decision !== "approve" && decision !== "deny") throw new NotFound("There is no such decision.");
  const request = await context.services.store.approvals.get(context.form.get("id") ?? "");
  if (!request) throw new NotFound("There is no request for approval with that id.");
  const actor = await checkWorkspace(context, request);
  const { viewer } = context;
  const answer = await context.services.approvals.decide(
    {
      platform: request.platform,
      workspaceId: request.workspaceId,
      approvalId: request.id,
      decision,
      actor: { id: actor.userId, name: viewer.name ?? actor.userId, role: actor.role, isBot: false, operator: viewer.operator },
    },
    "console",
  );
  context.services.logger.info(
    { approvalId: request.id, decision, by: actor.userId, decided: answer.kind === "decided" },
    "a request for approval decided in the console",
  );
  return approvals(context, { ok: answer.kind === "decided", text: answer.text });
}

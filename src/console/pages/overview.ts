import { Forbidden, type PageContext, type PageResult } from "../context.js";
import { count, html, query, workspaceLabel } from "../html.js";
import { noWorkspace, visibleWorkspaces, workspaceParam } from "./common.js";

const HOUR_MS = 60 * 60 * 1000;

async function figures(context: PageContext) {
  const { store, inFlight } = context.services;
  const [activity, sizeBytes] = await Promise.all([store.audit.activity(context.now - HOUR_MS), store.audit.sizeBytes()]);
  return { ...activity, inFlight: inFlight(), sizeMb: (sizeBytes / 1024 / 1024).toFixed(1) };
}

/** What runs now, what it costs today, what broke in the last hour; refreshed by /assets/console.js from /overview.json. */
export async function overview(context: PageContext): Promise<PageResult> {
  if (!context.viewer.operator) return memberOverview(context);
  const { services } = context;
  const [live, budgets] = await Promise.all([figures(context), context.viewer.operator ? services.budgets.report() : Promise.resolve([])]);
  const platforms = services.platforms().map((platform) => ({ name: platform.name, ...platform.health() }));
  const body = html`<div data-refresh="/overview.json" data-every="5000">
<div class="cards">
<section class="card"><h2>Turns running</h2><div class="big" data-live="running">${count(live.running)}</div><p class="muted">in every process; <span data-live="inFlight">${live.inFlight}</span> in this one</p></section>
<section class="card"><h2>Turns waiting</h2><div class="big" data-live="waiting">${count(live.waiting)}</div><p class="muted">in line behind another turn</p></section>
<section class="card"><h2>Errors, last hour</h2><div class="big" data-live="failed">${count(live.failed)}</div><p class="muted"><a href="/turns?outcome=failed">failed turns</a></p></section>
<section class="card"><h2>Store</h2><div class="big">${services.store.engine === "sqlite" ? "SQLite" : "PostgreSQL"}</div><p class="muted"><span data-live="sizeMb">${live.sizeMb}</span> MB</p></section>
</div>
<h2>Platforms</h2>
${
  platforms.length === 0
    ? html`<p class="muted">No platform is connected.</p>`
    : html`<table><thead><tr><th>Platform</th><th>Connected</th><th>How</th></tr></thead><tbody>
${platforms.map((p) => html`<tr><td>${p.name}</td><td>${p.connected ? "yes" : "no"}</td><td>${p.detail ?? ""}</td></tr>`)}
</tbody></table>`
}
<h2>Spend against budgets (current day and month)</h2>
<ul>${budgets.map((line) => html`<li>${line}</li>`)}</ul>
<p class="muted">Updated <span data-updated>now</span>.</p>
</div>`;
  return { kind: "html", title: "Overview", path: "/", body };
}

/** Someone signed in through a platform sees the workspaces they administer (figures across all are the operator's). */
async function memberOverview(context: PageContext): Promise<PageResult> {
  const mine = await visibleWorkspaces(context);
  const body =
    mine.length === 0
      ? noWorkspace(context)
      : html`<p>Signed in as ${context.viewer.name ?? context.viewer.userId} through ${context.viewer.platform}. You administer:</p>
<ul class="workspaces">${mine.map((ws) => html`<li><a href="/usage${query({ workspace: workspaceParam(ws) })}">${workspaceLabel(ws)}</a></li>`)}</ul>`;
  return { kind: "html", title: "Overview", path: "/", body };
}

export async function overviewJson(context: PageContext): Promise<PageResult> {
  if (!context.viewer.operator) throw new Forbidden("The figures across every workspace are the operator's.");
  return { kind: "data", contentType: "application/json", body: JSON.stringify(await figures(context)) };
}

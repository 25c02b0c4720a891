import type { ApprovalRow, FeedbackView, ModelCallView, StepRow, TurnDetail, TurnFilter, TurnRow } from "../../store/audit-store.js";
import { NotFound, type PageContext, type PageResult } from "../context.js";
import { count, html, query, when, workspaceLabel, type Html } from "../html.js";
import { checkWorkspace, parseWorkspace, visibleWorkspaces, workspaceParam, workspaceSelect } from "./common.js";

const PAGE_SIZE = 50;
const DAY_MS = 24 * 60 * 60 * 1000;
const FIELDS = ["workspace", "channel", "user", "outcome", "tool", "from", "to"] as const;

/** A yyyy-mm-dd date as ms (UTC midnight), or undefined. */
function day(value: string | null): number | undefined {
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
  const ms = Date.parse(`${value}T00:00:00Z`);
  return Number.isNaN(ms) ? undefined : ms;
}

function cursorOf(value: string | null): TurnFilter["after"] {
  const match = /^(\d+):(.+)$/.exec(value ?? "");
  return match ? { startedAt: Number(match[1]), id: match[2]! } : undefined;
}

const outcomeOf = (turn: TurnRow) => (turn.outcome && turn.outcome !== turn.status ? `${turn.status} (${turn.outcome})` : turn.status);

/** The turns, newest first, filtered; "Older" pages by keyset (the last row's time and id), never by offset. */
export async function turnList(context: PageContext): Promise<PageResult> {
  const params = context.url.searchParams;
  const all = await visibleWorkspaces(context);
  const workspace = parseWorkspace(params.get("workspace"));
  if (workspace) await checkWorkspace(context, workspace);
  const text = (name: string) => params.get(name)?.trim() || undefined;
  const to = day(params.get("to"));
  const filter: TurnFilter = {
    workspace,
    channelId: text("channel"),
    userId: text("user"),
    outcome: text("outcome"),
    tool: text("tool"),
    from: day(params.get("from")),
    to: to === undefined ? undefined : to + DAY_MS,
    after: cursorOf(params.get("after")),
    limit: PAGE_SIZE + 1,
  };
  // Without a workspace the list spans them all: the operator's alone.
  const rows = workspace || context.viewer.operator ? await context.services.store.audit.turns(filter) : [];
  const shown = rows.slice(0, PAGE_SIZE);
  const last = shown.at(-1);
  const kept = Object.fromEntries(FIELDS.map((name) => [name, params.get(name) ?? undefined]));
  const older = rows.length > PAGE_SIZE && last ? `/turns${query({ ...kept, after: `${last.startedAt}:${last.id}` })}` : undefined;
  const input = (name: string, label: string, type = "text") =>
    html`<label>${label} <input type="${type}" name="${name}" value="${params.get(name) ?? ""}"></label>`;
  const body = html`<form class="filters" method="get" action="/turns">
${workspaceSelect(all, workspace, { any: context.viewer.operator })}
${input("channel", "Channel")}${input("user", "User")}${input("outcome", "Outcome")}${input("tool", "Tool")}${input("from", "From", "date")}${input("to", "To", "date")}
<button type="submit">Search</button></form>
${
  shown.length === 0
    ? html`<p class="muted">No turn matches.</p>`
    : html`<table class="turns"><thead><tr><th>Started (UTC)</th><th>Workspace</th><th>Channel</th><th>User</th><th>Outcome</th><th class="num">Tokens in / out</th><th class="num">Time</th></tr></thead><tbody>
${shown.map(
  (
    turn,
  ) => html`<tr><td><a href="/turns/${encodeURIComponent(turn.id)}">${when(turn.startedAt)}</a></td><td>${workspaceLabel(turn)}</td><td>${turn.channelId}</td><td>${turn.userId}</td>
<td>${outcomeOf(turn)}</td><td class="num">${count(turn.promptTokens)} / ${count(turn.completionTokens)}</td><td class="num">${turn.durationMs === undefined ? "" : `${count(turn.durationMs)} ms`}</td></tr>`,
)}
</tbody></table>`
}
${older ? html`<p><a href="${older}" rel="next">Older turns →</a></p>` : ""}`;
  return { kind: "html", title: "Turns", path: "/turns", body };
}

function approvalText(approval: ApprovalRow | undefined) {
  if (!approval) return "";
  const decided = approval.decidedBy ? ` by ${approval.decidedBy}${approval.decidedVia ? ` (${approval.decidedVia})` : ""}` : "";
  return html`<p class="approval">Approval: <strong>${approval.status.replace("_", " ")}</strong>${decided}${approval.decidedAt ? ` at ${when(approval.decidedAt)}` : ""}</p>`;
}

const PURPOSES: Record<string, string> = { turn: "model call", side_question: "side question (a tool's)", summary: "summary" };

function modelCallItem(call: ModelCallView): Html {
  const tokens = call.promptTokens === undefined ? "tokens not reported" : `${count(call.promptTokens)} in / ${count(call.completionTokens ?? 0)} out`;
  const firstToken = call.firstTokenMs === undefined ? "" : ` · first token ${count(call.firstTokenMs)} ms`;
  return html`<li class="model-call" data-purpose="${call.purpose}" data-outcome="${call.outcome}"><strong>${PURPOSES[call.purpose] ?? call.purpose}${call.retry ? " (retry)" : ""}</strong> ${call.model} <span class="muted">${call.provider}</span>
<div><span class="tokens">${tokens}</span> · <span class="latency">${count(call.durationMs)} ms</span>${firstToken}${call.outcome === "ok" ? "" : html` · <span class="error">${call.outcome}</span>`}</div></li>`;
}

function stepItem(step: StepRow, approval: ApprovalRow | undefined): Html {
  return html`<li class="step" data-tool="${step.tool}"><strong>${step.seq}. ${step.tool}</strong> <span class="muted">${when(step.startedAt)}${step.durationMs === undefined ? "" : ` · ${count(step.durationMs)} ms`}</span>
<div>Arguments</div><pre>${step.input}</pre>
${step.error === undefined ? html`<div>Result</div><pre>${step.output ?? ""}</pre>` : html`<div class="error">Error</div><pre class="error">${step.error}</pre>`}
${approvalText(approval)}</li>`;
}

/**
 * The steps in the order they began, each model call after the steps begun when it ended (its
 * recorded place: a call before the steps it asked for, a tool's side question after its step),
 * whatever the clocks' millisecond says. Approvals follow their tool's steps in order: the n-th
 * request for a tool is its n-th step's.
 */
function timeline(turn: TurnDetail): Html[] {
  const pending = new Map<string, ApprovalRow[]>();
  for (const approval of turn.approvals) pending.set(approval.tool, [...(pending.get(approval.tool) ?? []), approval]);
  const items = [
    ...turn.modelCalls.map((call) => ({ place: call.afterStep, rank: 1, seq: call.seq, html: modelCallItem(call) })),
    ...turn.steps.map((step, index) => ({ place: index + 1, rank: 0, seq: step.seq, html: stepItem(step, pending.get(step.tool)?.shift()) })),
  ];
  // The k-th step begun has place k; a call of place k comes after it, before the (k+1)-th.
  return items.sort((a, b) => a.place - b.place || a.rank - b.rank || a.seq - b.seq).map((item) => item.html);
}

// The word beside the sign: read aloud by screen readers, and still there where no emoji font is.
const VOTES = { up: "👍 helpful", down: "👎 not helpful" } as const;

function feedbackList(feedback: FeedbackView[]): Html {
  if (feedback.length === 0) return html`<p class="muted">Nobody rated this answer.</p>`;
  return html`<ul class="feedback">${feedback.map(
    (vote) =>
      html`<li data-vote="${vote.vote}">${VOTES[vote.vote]} by <span class="who">${vote.userId}</span> <span class="muted">${when(vote.votedAt)} UTC</span></li>`,
  )}</ul>`;
}

/** The platform's own link, as it made it; only a web address is made a link. */
const platformLink = (link: string | undefined) =>
  link && /^https:\/\//.test(link)
    ? html` · <a class="platform-link" href="${link}" rel="noreferrer noopener" target="_blank">open the question on its platform</a>`
    : "";

/** One turn: the question, its steps and model calls on a timeline, the model's figures, the answer and its votes. */
export async function turnPage(context: PageContext): Promise<PageResult> {
  const id = decodeURIComponent(context.url.pathname.slice("/turns/".length));
  const turn = await context.services.store.audit.turn(id);
  if (!turn) throw new NotFound("There is no turn with that id.");
  await checkWorkspace(context, turn);
  const body = html`<p><a href="/turns${query({ workspace: workspaceParam(turn) })}">← ${workspaceLabel(turn)}</a> · channel ${turn.channelId}${turn.threadId ? `, thread ${turn.threadId}` : ""} · user ${turn.userId} · ${when(turn.startedAt)} UTC${platformLink(turn.link)}</p>
<h2>Question</h2>${turn.question === undefined ? html`<p class="muted">Not kept (the turn wrote no exchange).</p>` : html`<pre class="question">${turn.question}</pre>`}
<h2>Steps and model calls</h2>
${turn.steps.length === 0 ? html`<p class="muted">No tool was called.</p>` : ""}
${turn.steps.length + turn.modelCalls.length === 0 ? "" : html`<ol class="timeline">${timeline(turn)}</ol>`}
<h2>Model</h2>
<table><tbody><tr><th>Model</th><td>${turn.model ?? "(unrecorded)"}</td></tr>
<tr><th>Iterations (tool rounds)</th><td>${turn.iterations}</td></tr>
<tr><th>Model calls</th><td>${turn.modelCalls.length}</td></tr>
<tr><th>Tokens in / out</th><td>${count(turn.promptTokens)} / ${count(turn.completionTokens)}</td></tr>
<tr><th>Time</th><td>${turn.durationMs === undefined ? "still running" : `${count(turn.durationMs)} ms`}</td></tr>
<tr><th>Outcome</th><td>${outcomeOf(turn)}</td></tr>
${turn.error ? html`<tr><th>Error</th><td class="error">${turn.error}</td></tr>` : ""}
${turn.traceId ? html`<tr><th>Trace id</th><td><code class="trace-id">${turn.traceId}</code></td></tr>` : ""}</tbody></table>
<h2>Answer</h2>${turn.answer === undefined ? html`<p class="muted">No answer was kept.</p>` : html`<pre class="answer">${turn.answer}</pre>`}
<h2>Feedback</h2>${feedbackList(turn.feedback)}`;
  return { kind: "html", title: `Turn ${turn.id}`, path: "/turns", body };
}

import { NotFound, type PageContext, type PageResult } from "../context.js";
import { commandAnswer, count, html, type Html, when } from "../html.js";
import { checkWorkspace, chosenWorkspace, noWorkspace, workspaceParam, workspaceSelect } from "./common.js";

const HISTORY = 10;
const ACTIONS = ["pause", "resume", "run"] as const;
type Action = (typeof ACTIONS)[number];

/** The workspace's scheduled tasks, each with its last runs and its pause, resume and run-now buttons. */
export async function schedules(context: PageContext, notice?: { ok: boolean; text: string }): Promise<PageResult> {
  const { chosen, all } = await chosenWorkspace(context);
  if (!chosen) return { kind: "html", title: "Schedules", path: "/schedules", body: noWorkspace(context) };
  const repository = context.services.store.schedules;
  const tasks = await repository.list(chosen);
  const histories = await Promise.all(tasks.map((task) => repository.history(task.id, HISTORY)));
  const button = (id: string, action: Action, label: string): Html =>
    html`<form class="inline" method="post" action="/schedules"><input type="hidden" name="csrf" value="${context.csrf}"><input type="hidden" name="workspace" value="${workspaceParam(chosen)}"><input type="hidden" name="id" value="${id}"><input type="hidden" name="action" value="${action}"><button type="submit" class="quiet">${label}</button></form>`;
  const body = html`${notice ? html`<p class="${notice.ok ? "notice" : "problem"}" role="status">${commandAnswer(notice.text)}</p>` : ""}
<form class="filters" method="get" action="/schedules">${workspaceSelect(all, chosen)}<button type="submit">Show</button></form>
${
  tasks.length === 0
    ? html`<p class="muted">No scheduled task in this workspace (members add them with /schedule add).</p>`
    : tasks.map(
        (task, i) => html`<section class="card task" data-task="${task.id}"><h2>${task.id} · ${task.whenText} · ${task.status}</h2>
<p>${task.task}</p>
<p class="muted">channel ${task.channelId} · by ${task.creator} · ${task.timeZone}${task.nextDue ? ` · next ${when(task.nextDue)} UTC` : ""}${task.failures > 0 ? ` · ${task.failures} failed in a row` : ""}</p>
<p>${task.status === "active" ? button(task.id, "pause", "Pause") : task.status === "paused" ? button(task.id, "resume", "Resume") : ""} ${button(task.id, "run", "Run now")}</p>
${
  histories[i]!.length === 0
    ? html`<p class="muted">No run yet.</p>`
    : html`<table><thead><tr><th>Due (UTC)</th><th>Outcome</th><th class="num">Tokens</th><th>Detail</th></tr></thead><tbody>
${histories[i]!.map((run) => html`<tr><td>${when(run.dueAt)}</td><td>${run.status}</td><td class="num">${count(run.tokens)}</td><td>${run.link ? html`<a href="${run.link}">post</a> ` : ""}${run.detail ?? ""}</td></tr>`)}
</tbody></table>`
}</section>`,
      )
}`;
  return { kind: "html", title: "Schedules", path: "/schedules", body };
}

/** Pause, resume or run now: the /schedule command itself runs it, with its own checks. */
export async function scheduleAction(context: PageContext): Promise<PageResult> {
  const id = context.form.get("id") ?? "";
  const action = context.form.get("action") as Action;
  if (!ACTIONS.includes(action)) throw new NotFound("There is no such action.");
  const task = await context.services.store.schedules.get(id);
  if (!task) throw new NotFound("There is no scheduled task with that id.");
  const actor = await checkWorkspace(context, task);
  const where = { platform: task.platform, workspaceId: task.workspaceId, channelId: task.channelId };
  const result = await context.services.commands.execute({ kind: "schedule_task", action, id }, where, actor);
  return schedules(context, result);
}

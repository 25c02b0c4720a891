import type { SettingsChange } from "../../store/audit-store.js";
import type { WorkspaceRef } from "../../store/types.js";
import type { PageContext, PageResult } from "../context.js";
import { commandAnswer, html, type Html, when } from "../html.js";
import { checkWorkspace, chosenWorkspace, noWorkspace, workspaceParam, workspaceSelect } from "./common.js";
import { commandsFor, currentValues, toolStateOf, type SettingsValues } from "./settings-values.js";

const CHANNELS_LISTED = 200;
const CHANGES_SHOWN = 20;

interface Outcome {
  notices: { ok: boolean; text: string }[];
  stale?: SettingsChange[];
}

function select(name: string, value: string, options: readonly string[]): Html {
  return html`<select name="${name}">${options.map((option) => html`<option${option === value ? html` selected` : ""}>${option}</option>`)}</select>`;
}

function form(context: PageContext, ws: WorkspaceRef, channelId: string | undefined, values: SettingsValues, version: number, models: readonly string[]): Html {
  const inChannel = channelId !== undefined;
  const level = inChannel ? `channel ${channelId}` : "the whole workspace";
  return html`<form method="post" action="/settings" class="settings">
<input type="hidden" name="csrf" value="${context.csrf}"><input type="hidden" name="workspace" value="${workspaceParam(ws)}">
${inChannel ? html`<input type="hidden" name="channel" value="${channelId}">` : ""}<input type="hidden" name="version" value="${version}">
<fieldset><legend>Tools in ${level}</legend><table><thead><tr><th>Tool</th><th>${inChannel ? "In this channel" : "In the workspace"}</th>${inChannel ? html`<th>Offered here</th>` : html`<th>Needs approval</th>`}</tr></thead><tbody>
${values.tools.map(
  (tool) => html`<tr><td><code>${tool.name}</code> <span class="muted">${tool.description.split(/(?<=\.)\s/)[0]}</span></td>
<td>${select(`tool:${tool.name}`, toolStateOf(tool, inChannel), inChannel ? ["default", "on", "off"] : ["on", "off"])}</td>
<td>${inChannel ? (tool.enabledHere ? "yes" : "no") : select(`approval:${tool.name}`, tool.needsApproval ? "yes" : "no", ["no", "yes"])}</td></tr>`,
)}</tbody></table></fieldset>
<fieldset><legend>Prompt and model</legend>
<label>Extra instructions (${inChannel ? "after the workspace's" : "for every channel"})<textarea name="prompt" maxlength="2000">${values.prompt}</textarea></label>
${inChannel ? html`<label>Model ${select("model", values.model, ["", ...models])}</label>` : ""}
</fieldset>
<fieldset><legend>Memory</legend>
<label>Memory window (exchanges; empty: ${inChannel ? "the workspace's" : "the default"}) <input type="number" name="memoryWindow" min="1" value="${values.memoryWindow}"></label>
<label>Summary of what leaves the window ${select("memorySummary", values.memorySummary, inChannel ? ["default", "on", "off"] : ["on", "off"])}</label>
${inChannel ? html`<label>History indexing (search_history) ${select("history", values.history, ["off", "on"])}</label>` : ""}
</fieldset>
<fieldset><legend>Budgets of ${level}</legend>
<label>Per day (tokens such as 50k, or dollars such as $5; empty: none) <input name="budgetDay" value="${values.budgetDay}"></label>
<label>Per month <input name="budgetMonth" value="${values.budgetMonth}"></label>
</fieldset>
<button type="submit">Save</button>
</form>`;
}

function staleText(changes: readonly SettingsChange[]): Html {
  return html`<div class="problem" role="alert"><p>Someone changed these settings after you opened the form, so nothing was saved. What changed:</p>
<ul>${changes.map((change) => html`<li><code>${change.key}</code> → <code>${change.value}</code> by ${change.changedBy} at ${when(change.changedAt)} UTC</li>`)}</ul>
<p>The form below shows the settings as they are now.</p></div>`;
}

async function render(context: PageContext, outcome: Outcome = { notices: [] }): Promise<PageResult> {
  const { chosen, all } = await chosenWorkspace(context);
  if (!chosen) return { kind: "html", title: "Settings", path: "/settings", body: noWorkspace(context) };
  const channelId = (context.url.searchParams.get("channel") ?? context.form.get("channel"))?.trim() || undefined;
  const { audit } = context.services.store;
  const [values, version, channels] = await Promise.all([
    currentValues(context, chosen, channelId),
    audit.settingsVersion(chosen),
    audit.channels(chosen, CHANNELS_LISTED),
  ]);
  const models = context.services.policies.defaults.models;
  const body = html`${outcome.stale ? staleText(outcome.stale) : ""}
${outcome.notices.map((notice) => html`<p class="${notice.ok ? "notice" : "problem"}" role="status">${commandAnswer(notice.text)}</p>`)}
<form class="filters" method="get" action="/settings">${workspaceSelect(all, chosen)}
<label>Channel <select name="channel"><option value="">(the whole workspace)</option>${channels.map((id) => html`<option${id === channelId ? html` selected` : ""}>${id}</option>`)}</select></label>
<button type="submit">Show</button></form>
${form(context, chosen, channelId, values, version, models)}`;
  return { kind: "html", status: outcome.stale ? 409 : 200, title: "Settings", path: "/settings", body };
}

export const settingsPage = (context: PageContext) => render(context);

/**
 * Saves a settings form through the commands, field by field. The form carries the settings'
 * version (the newest audit entry it was drawn from): when another change came since, nothing is
 * saved and the page says what changed.
 */
export async function saveSettings(context: PageContext): Promise<PageResult> {
  const { chosen } = await chosenWorkspace(context);
  if (!chosen) return render(context);
  const actor = await checkWorkspace(context, chosen);
  const { audit } = context.services.store;
  const sent = Number(context.form.get("version"));
  const version = await audit.settingsVersion(chosen);
  if (!Number.isInteger(sent) || sent !== version) {
    return render(context, { notices: [], stale: await audit.changesSince(chosen, Number.isInteger(sent) ? sent : 0, CHANGES_SHOWN) });
  }
  const channelId = context.form.get("channel")?.trim() || undefined;
  const commands = commandsFor(await currentValues(context, chosen, channelId), context.form, channelId !== undefined);
  const where = { ...chosen, channelId: channelId ?? "" };
  const notices: Outcome["notices"] = [];
  for (const command of commands) {
    const result = await context.services.commands.execute(command, where, actor);
    notices.push({ ok: result.ok, text: result.text });
  }
  if (notices.length === 0) notices.push({ ok: true, text: "Nothing changed." });
  return render(context, { notices });
}

import { costOf, dayOf } from "../../runner/usage-report.js";
import type { DailyModelUsage, UsageFigures, UsageRow } from "../../store/usage-report-store.js";
import { UsageExport } from "../../ops/usage-export.js";
import { Forbidden, type PageContext, type PageResult } from "../context.js";
import { count, dollars, html, query, type Html } from "../html.js";
import { stackedBars, type ChartDay } from "./chart.js";
import { chosenWorkspace, noWorkspace, workspaceParam, workspaceSelect } from "./common.js";

const CHART_DAYS = 30;

interface Card {
  label: string;
  figures: UsageFigures;
  cost?: number;
}

function sum(rows: readonly DailyModelUsage[], prices: PageContext["services"]["prices"]): { figures: UsageFigures; cost?: number } {
  const figures = { turns: 0, promptTokens: 0, completionTokens: 0 };
  let cost: number | undefined;
  for (const row of rows) {
    figures.turns += row.turns;
    figures.promptTokens += row.promptTokens;
    figures.completionTokens += row.completionTokens;
    const rowCost = costOf({ key: row.model, ...row }, prices);
    if (rowCost !== undefined) cost = (cost ?? 0) + rowCost;
  }
  return { figures, cost };
}

function card(c: Card): Html {
  return html`<section class="card" data-card="${c.label}"><h2>${c.label}</h2>
<div class="big">${c.cost === undefined ? "—" : dollars(c.cost)}</div>
<dl><dt>Turns</dt><dd data-figure="turns">${count(c.figures.turns)}</dd>
<dt>Tokens in</dt><dd data-figure="in">${count(c.figures.promptTokens)}</dd>
<dt>Tokens out</dt><dd data-figure="out">${count(c.figures.completionTokens)}</dd></dl></section>`;
}

function ranking(title: string, rows: readonly UsageRow[], link: (key: string) => string, prices?: PageContext["services"]["prices"]): Html {
  if (rows.length === 0) return html``;
  return html`<h2>${title}</h2><table><thead><tr><th>${title.replace("By ", "")}</th><th class="num">Turns</th><th class="num">Tokens in</th><th class="num">Tokens out</th>${prices ? html`<th class="num">Cost</th>` : ""}</tr></thead><tbody>
${rows.map((row) => {
  const cost = prices ? costOf(row, prices) : undefined;
  return html`<tr><td><a href="${link(row.key)}">${row.key || "(unrecorded)"}</a></td><td class="num">${count(row.turns)}</td><td class="num">${count(row.promptTokens)}</td><td class="num">${count(row.completionTokens)}</td>${prices ? html`<td class="num">${cost === undefined ? "" : dollars(cost)}</td>` : ""}</tr>`;
})}
</tbody></table>`;
}

/** Cards, the daily chart by model and the rankings: every figure is /usage's own query layer (UsageReports). */
export async function usage(context: PageContext): Promise<PageResult> {
  const { chosen, all } = await chosenWorkspace(context);
  if (!chosen) return { kind: "html", title: "Usage", path: "/usage", body: noWorkspace(context) };
  const { services, now } = context;
  const today = dayOf(now);
  const [periods, daily] = await Promise.all([services.usage.periods(chosen), services.usage.daily(chosen, CHART_DAYS)]);
  const month = periods.find((period) => period.days === 30)!;
  const cards: Card[] = [
    {
      label: "Today",
      ...sum(
        daily.filter((row) => row.day === today),
        services.prices,
      ),
    },
    {
      label: "Yesterday",
      ...sum(
        daily.filter((row) => row.day === today - 1),
        services.prices,
      ),
    },
    { label: "Last 30 days", figures: month.summary.total, cost: month.cost },
  ];
  const models = [...new Set(daily.map((row) => row.model))].sort();
  const days: ChartDay[] = Array.from({ length: CHART_DAYS }, (_, i) => {
    const day = today - CHART_DAYS + 1 + i;
    return { day, values: new Map(daily.filter((row) => row.day === day).map((row) => [row.model, row.promptTokens + row.completionTokens])) };
  });
  const ws = workspaceParam(chosen);
  const turnsOf = (field: string) => (key: string) => `/turns${query({ workspace: ws, [field]: key })}`;
  const body = html`<form class="filters" method="get" action="/usage">${workspaceSelect(all, chosen)}<button type="submit">Show</button>
<a href="/usage.csv">CSV export</a></form>
<div class="cards">${cards.map(card)}</div>
<h2>Tokens per day by model (30 days)</h2>
${stackedBars(days, models, "Tokens per day, stacked by model")}
${ranking("By channel", month.summary.byChannel, turnsOf("channel"))}
${ranking("By user", month.summary.byUser, turnsOf("user"))}
${ranking("By model", month.summary.byModel, () => `/turns${query({ workspace: ws })}`, services.prices)}
${month.unpriced.length > 0 ? html`<p class="muted">No price in MODEL_PRICES for ${month.unpriced.join(", ")}: the cost leaves them out.</p>` : ""}`;
  return { kind: "html", title: "Usage", path: "/usage", body };
}

/** Every workspace's figures as `npm run usage -- --csv` writes them (operators only: it spans every workspace). */
export async function usageCsv(context: PageContext): Promise<PageResult> {
  if (!context.viewer.operator) throw new Forbidden("The CSV export spans every workspace: only the operator may download it.");
  const { services } = context;
  const body = await new UsageExport(services.store, services.prices, () => context.now).csv();
  return { kind: "data", contentType: "text/csv; charset=utf-8", body: `${body}\n`, filename: "usage.csv" };
}

import { count, html, type Html } from "../html.js";

export interface ChartDay {
  /** Days since the epoch (UTC). */
  day: number;
  /** Tokens by series (model). */
  values: ReadonlyMap<string, number>;
}

const WIDTH = 900;
const HEIGHT = 240;
const LEFT = 60;
const BOTTOM = 24;
const SERIES_STYLES = 8;

/** A stacked bar chart drawn by the server as SVG: no script, nothing loaded from elsewhere. */
export function stackedBars(days: readonly ChartDay[], series: readonly string[], label: string): Html {
  const totals = days.map((day) => series.reduce((sum, name) => sum + (day.values.get(name) ?? 0), 0));
  const max = Math.max(1, ...totals);
  const slot = (WIDTH - LEFT) / Math.max(1, days.length);
  const bar = Math.max(2, slot * 0.7);
  const plot = HEIGHT - BOTTOM - 8;
  const bars = days.map((day, i) => {
    let y = HEIGHT - BOTTOM;
    const x = LEFT + i * slot + (slot - bar) / 2;
    return series.map((name, s) => {
      const value = day.values.get(name) ?? 0;
      if (value === 0) return "";
      const h = (value / max) * plot;
      y -= h;
      const date = new Date(day.day * 86_400_000).toISOString().slice(0, 10);
      return html`<rect class="series-${s % SERIES_STYLES}" x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${bar.toFixed(1)}" height="${h.toFixed(1)}"><title>${date} ${name}: ${count(value)} tokens</title></rect>`;
    });
  });
  const labels = days.map((day, i) =>
    i % Math.ceil(days.length / 10) === 0
      ? html`<text x="${(LEFT + i * slot + slot / 2).toFixed(1)}" y="${HEIGHT - 6}" text-anchor="middle">${new Date(day.day * 86_400_000).toISOString().slice(5, 10)}</text>`
      : "",
  );
  return html`<figure class="chart"><svg viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${label}">
<line class="axis" x1="${LEFT}" y1="${HEIGHT - BOTTOM}" x2="${WIDTH}" y2="${HEIGHT - BOTTOM}"/>
<text x="${LEFT - 6}" y="14" text-anchor="end">${count(max)}</text><text x="${LEFT - 6}" y="${HEIGHT - BOTTOM}" text-anchor="end">0</text>
${bars}${labels}
</svg>
<figcaption class="legend">${series.map((name, s) => html`<span class="series-${s % SERIES_STYLES}">${name || "(unrecorded)"}</span>`)}</figcaption></figure>`;
}

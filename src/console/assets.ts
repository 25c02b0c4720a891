/**
 * The console's stylesheet and script, served by the bot itself (nothing from a CDN; the page works
 * offline). They are files of their own, never inline, so the Content-Security-Policy forbids
 * every inline script and style.
 */
const CSS = `
:root { --fg: #1d2330; --muted: #5b6475; --line: #d9dde5; --bg: #f6f7f9; --accent: #3856d6; --bad: #b3261e; --ok: #1e7b34; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, sans-serif; color: var(--fg); background: var(--bg); }
header { padding: 10px 20px; background: #1d2330; color: #fff; }
nav { display: flex; gap: 4px; padding: 6px 20px; background: #fff; border-bottom: 1px solid var(--line); align-items: center; flex-wrap: wrap; }
nav a { padding: 6px 10px; border-radius: 6px; color: var(--fg); text-decoration: none; }
nav a[aria-current=page] { background: var(--accent); color: #fff; }
nav .logout { margin-left: auto; }
main { padding: 16px 20px 40px; max-width: 1200px; }
h1 { font-size: 22px; margin: 4px 0 14px; }
h2 { font-size: 17px; margin: 22px 0 8px; }
table { border-collapse: collapse; width: 100%; background: #fff; border: 1px solid var(--line); }
th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: #eef0f4; font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(220px, 1fr)); gap: 12px; }
.card { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 12px 14px; }
.card h2 { margin: 0 0 6px; font-size: 15px; color: var(--muted); }
.card .big { font-size: 24px; font-weight: 600; }
.card dl { display: grid; grid-template-columns: auto auto; gap: 2px 12px; margin: 6px 0 0; }
.card dt { color: var(--muted); } .card dd { margin: 0; text-align: right; font-variant-numeric: tabular-nums; }
.problem { color: var(--bad); background: #fdecea; border: 1px solid #f4c7c3; padding: 8px 10px; border-radius: 6px; }
.notice { color: var(--ok); background: #e8f5ec; border: 1px solid #bfe3c9; padding: 8px 10px; border-radius: 6px; }
form.filters { display: flex; flex-wrap: wrap; gap: 8px; align-items: end; margin-bottom: 12px; }
label { display: inline-flex; flex-direction: column; font-size: 13px; color: var(--muted); gap: 2px; }
input, select, textarea, button { font: inherit; padding: 5px 8px; border: 1px solid var(--line); border-radius: 6px; background: #fff; color: var(--fg); }
textarea { width: 100%; min-height: 70px; }
button { background: var(--accent); color: #fff; border-color: var(--accent); cursor: pointer; }
a.sign-in { display: inline-block; padding: 8px 14px; border-radius: 6px; background: #5865f2; color: #fff; text-decoration: none; }
button.quiet { background: #fff; color: var(--accent); }
form.inline { display: inline; }
.timeline { list-style: none; padding: 0; margin: 0; border-left: 3px solid var(--line); }
.timeline li { margin: 0 0 12px; padding: 6px 12px; background: #fff; border: 1px solid var(--line); border-left: none; border-radius: 0 8px 8px 0; }
.timeline .error { color: var(--bad); }
.timeline .model-call { background: #f4f6fb; }
pre { white-space: pre-wrap; word-break: break-word; background: #f0f2f5; padding: 6px 8px; border-radius: 6px; margin: 4px 0; max-height: 320px; overflow: auto; }
.muted { color: var(--muted); }
.chart svg { width: 100%; height: auto; background: #fff; border: 1px solid var(--line); }
.chart .axis { stroke: var(--line); } .chart text { font-size: 11px; fill: var(--muted); }
.legend { display: flex; gap: 12px; flex-wrap: wrap; font-size: 13px; margin-top: 4px; }
.legend span::before { content: ""; display: inline-block; width: 10px; height: 10px; margin-right: 4px; background: currentColor; }
${Array.from({ length: 8 }, (_, i) => `.series-${i} { fill: ${palette(i)}; color: ${palette(i)}; }`).join("\n")}
fieldset { border: 1px solid var(--line); border-radius: 8px; background: #fff; margin: 0 0 12px; }
legend { font-weight: 600; }
`;

function palette(i: number): string {
  return ["#3856d6", "#e07b39", "#2a9d8f", "#c0398e", "#8a6d3b", "#6c757d", "#5a3fc0", "#3b8a3e"][i]!;
}

/** Refreshes the parts of a page marked data-live from the JSON at the page's data-refresh address. */
const JS = `"use strict";
(function () {
  var root = document.querySelector("[data-refresh]");
  if (!root) return;
  var url = root.getAttribute("data-refresh");
  var every = Number(root.getAttribute("data-every") || "5000");
  function update() {
    fetch(url, { credentials: "same-origin", headers: { accept: "application/json" } })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (data) {
        if (!data) return;
        root.querySelectorAll("[data-live]").forEach(function (element) {
          var value = data[element.getAttribute("data-live")];
          if (value !== undefined) element.textContent = String(value);
        });
        var stamp = root.querySelector("[data-updated]");
        if (stamp) stamp.textContent = new Date().toISOString().slice(11, 19) + " UTC";
      })
      .catch(function () {});
  }
  setInterval(update, every);
})();
`;

export const ASSETS: Readonly<Record<string, { contentType: string; body: string }>> = {
  "/assets/console.css": { contentType: "text/css; charset=utf-8", body: CSS },
  "/assets/console.js": { contentType: "text/javascript; charset=utf-8", body: JS },
};

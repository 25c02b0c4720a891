import { html, type Html } from "./html.js";

const NAV = [
  ["/", "Overview"],
  ["/usage", "Usage"],
  ["/turns", "Turns"],
  ["/schedules", "Schedules"],
  ["/settings", "Settings"],
  ["/approvals", "Approvals"],
] as const;

/** A whole page: the navigation (signed in: with the session's CSRF token for signing out), the content, the stylesheet and script files (no inline script: see the CSP). */
export function layout(title: string, current: string, body: Html, csrf?: string): string {
  const nav =
    csrf !== undefined
      ? html`<nav>${NAV.map(([href, label]) => html`<a href="${href}"${current === href ? html` aria-current="page"` : ""}>${label}</a>`)}
        <form method="post" action="/logout" class="logout"><input type="hidden" name="csrf" value="${csrf}"><button type="submit">Sign out</button></form></nav>`
      : "";
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · agent-bot console</title>
<link rel="stylesheet" href="/assets/console.css">
<script src="/assets/console.js" defer></script>
</head>
<body>
<header><strong>agent-bot</strong> console</header>
${nav}
<main>
<h1>${title}</h1>
${body}
</main>
</body>
</html>`.text;
}

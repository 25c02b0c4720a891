/** HTML written by the server: every value escaped unless it is already Html. */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

type Part = Html | string | number | boolean | undefined | null | readonly Part[];

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function render(part: Part): string {
  if (part === undefined || part === null || part === false || part === true) return "";
  if (part instanceof Html) return part.text;
  if (Array.isArray(part)) return part.map(render).join("");
  return escapeHtml(String(part));
}

/** A template whose interpolations are escaped (arrays joined, Html kept as it is). */
export function html(strings: TemplateStringsArray, ...parts: Part[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < parts.length; i++) out += render(parts[i]!) + strings[i + 1]!;
  return new Html(out);
}

/** A query string from the values given (empty ones left out). */
export function query(values: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) if (value !== undefined && value !== "") params.set(key, String(value));
  const text = params.toString();
  return text ? `?${text}` : "";
}

export const count = (n: number) => n.toLocaleString("en-US");
export const dollars = (amount: number) => `$${amount >= 1 || amount === 0 ? amount.toFixed(2) : amount.toPrecision(2)}`;
export const when = (ms: number | undefined) => (ms === undefined ? "" : new Date(ms).toISOString().replace("T", " ").slice(0, 19));
export const workspaceLabel = (ws: { platform: string; workspaceId: string }) => `${ws.platform} ${ws.workspaceId}`;

/**
 * A command's answer (Markdown for chat) as HTML: escaped first, then `code` and **bold**, the
 * two marks the commands' answers use.
 */
export function commandAnswer(markdown: string): Html {
  const escaped = escapeHtml(markdown)
    .replace(/`([^`\n]+)`/g, "<code>$1</code>")
    .replace(/\*\*([^*\n]+)\*\*/g, "<strong>$1</strong>")
    .replace(/\n/g, "<br>");
  return new Html(escaped);
}

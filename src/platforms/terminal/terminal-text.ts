/**
 * The bot's Markdown (the same it writes for Discord and Slack) as a terminal shows it: bold,
 * code, headings and lists as terminal styling on a TTY (`styled`), the plain words when the
 * output is piped; chat-app mentions (`<@U1>`, `<#C1|general>`) as readable names; lines wrapped
 * at word boundaries to `width` when there is one. Line by line: a line renders the same whatever
 * follows it, which is what lets a streamed answer print its lines as they arrive.
 */
export interface TerminalStyle {
  /** ANSI styling (a TTY); otherwise plain text. */
  styled: boolean;
  /** Columns to wrap at (a TTY's width); undefined: no wrapping. */
  width?: number;
  /** Columns the first line's start already takes ("bot: "). */
  firstLineTaken?: number;
  /** Put before every line (a step's indentation), counted in the width. */
  indent?: string;
}

const BOLD = ["\x1b[1m", "\x1b[22m"] as const;
const CODE = ["\x1b[36m", "\x1b[39m"] as const;
const DIM = ["\x1b[2m", "\x1b[22m"] as const;
const ESCAPE = /\x1b\[[0-9;]*m/g;
const FENCE = /^\s*```/;
/** A line that may have a block form: it starts with a mark a heading, bullet, numbered item, quote or rule starts with. */
const BLOCK_START = /^\s*[#>*+\-_\d]/;

/** Renders Markdown for the terminal (see TerminalStyle). */
export function terminalText(markdown: string, style: TerminalStyle): string {
  const indent = style.indent ?? "";
  let inFence = false;
  const out: string[] = [];
  for (const line of markdown.split("\n")) {
    if (FENCE.test(line)) {
      inFence = !inFence;
      continue;
    }
    const taken = out.length === 0 ? (style.firstLineTaken ?? 0) : 0;
    if (inFence) {
      out.push(indent + paint(`    ${line}`, CODE, style.styled));
      continue;
    }
    const { lead, hang, body } = block(line, style);
    const text = lead + inline(body, style.styled);
    out.push(...wrap(text, style.width === undefined ? undefined : style.width - indent.length, taken, hang).map((part) => indent + part));
  }
  return out.join("\n");
}

/** A line's block form: its bullet or heading mark as the terminal shows it, and the hanging indent of its wrapped lines. */
function block(line: string, style: TerminalStyle): { lead: string; hang: number; body: string } {
  // Most lines are prose: one test instead of five patterns.
  if (!BLOCK_START.test(line)) return { lead: "", hang: 0, body: line };
  const heading = /^#{1,6}\s+(.*)$/.exec(line);
  if (heading) return { lead: "", hang: 0, body: style.styled ? `**${heading[1]}**` : heading[1]! };
  const bullet = /^(\s*)[-*+]\s+(.*)$/.exec(line);
  if (bullet && !/^(\s*)([-*])\s*\2\s*\2/.test(line)) return { lead: `${bullet[1]}• `, hang: bullet[1]!.length + 2, body: bullet[2]! };
  const numbered = /^(\s*)(\d+[.)])\s+(.*)$/.exec(line);
  if (numbered) return { lead: `${numbered[1]}${numbered[2]} `, hang: numbered[1]!.length + numbered[2]!.length + 1, body: numbered[3]! };
  const quote = /^>\s?(.*)$/.exec(line);
  if (quote) return { lead: "│ ", hang: 2, body: quote[1]! };
  if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) return { lead: "", hang: 0, body: "─".repeat(Math.min(style.width ?? 40, 40)) };
  return { lead: "", hang: 0, body: line };
}

/** Inline marks and chat-app markup: mentions, links, **bold**, `code`, _(asides)_. */
function inline(text: string, styled: boolean): string {
  // Each pattern runs only when its mark is there: a step line has code spans and an aside, rarely the rest.
  let out = text;
  if (out.includes("<")) out = chatMarkup(out);
  if (out.includes("]("))
    out = out.replace(/\[([^\]\n]+)\]\((https?:[^)\s]+)\)/g, (_all, label: string, url: string) => (label === url ? url : `${label} (${url})`));
  if (out.includes("`")) out = out.replace(/(?<!`)`([^`\n]+)`(?!`)/g, (_all, code: string) => paint(code, CODE, styled));
  if (out.includes("**") || out.includes("__"))
    out = out.replace(/\*\*([^*\n]+)\*\*|__([^_\n]+)__/g, (_all, a: string | undefined, b: string | undefined) => paint(a ?? b ?? "", BOLD, styled));
  if (out.includes("_("))
    out = out.replace(/(^|\s)_\(([^\n]*?)\)_(?=\s|$|[.,;:])/g, (_all, before: string, aside: string) => `${before}${paint(`(${aside})`, DIM, styled)}`);
  return out;
}

/** Chat-app markup as the terminal shows it: mentions and channels by name, links with their address. */
function chatMarkup(text: string): string {
  return text
    .replace(/<@!?([A-Za-z0-9]+)>/g, "@$1")
    .replace(/<#[A-Za-z0-9]+\|([^>]+)>/g, "#$1")
    .replace(/<#([A-Za-z0-9_-]+)>/g, "#$1")
    .replace(/<!(here|channel|everyone)(?:\|[^>]*)?>/g, "@$1")
    .replace(/<(https?:[^|>\s]+)\|([^>]+)>/g, "$2 ($1)")
    .replace(/<(https?:[^>\s]+)>/g, "$1");
}

const paint = (text: string, [on, off]: readonly [string, string], styled: boolean) => (styled ? `${on}${text}${off}` : text);

/** Columns a text takes on screen (its escape sequences take none). */
const visible = (text: string) => [...text.replace(ESCAPE, "")].length;

/** Greedy word wrap: breaks at spaces only, a word longer than a line stays whole on its own. */
function wrap(text: string, width: number | undefined, taken: number, hang: number): string[] {
  if (width === undefined || width < 10 || visible(text) + taken <= width) return [text];
  const lines: string[] = [];
  let line = "";
  let used = taken;
  for (const word of text.split(" ")) {
    const size = visible(word);
    if (line !== "" && used + 1 + size > width) {
      lines.push(line);
      line = " ".repeat(hang) + word;
      used = hang + size;
    } else if (line === "" && lines.length === 0) {
      line = word;
      used += size;
    } else {
      line += ` ${word}`;
      used += 1 + size;
    }
  }
  lines.push(line);
  return lines;
}

/**
 * How much of a Markdown answer still being written renders for good: whole lines, and of the
 * last line the words before any mark not yet closed (a `code` span, **bold**, a <mention>, a
 * [link]) and before the word still being written; nothing of a last line too short to tell its
 * form yet (a "#" may become a heading, a "-" a bullet). Trailing blanks wait too: a final text
 * is trimmed, and a blank already printed would no longer be part of it.
 */
export function settledMarkdown(markdown: string): string {
  const lastLine = markdown.lastIndexOf("\n") + 1;
  const tail = markdown.slice(lastLine);
  const head = markdown.slice(0, lastLine);
  const inFence = head.split("\n").filter((line) => FENCE.test(line)).length % 2 === 1;
  if (FENCE.test(tail) || tail.trimStart().length < 4) return head.trimEnd();
  // Closed constructs masked to spaces of the same length: the first mark left opens one that has not closed.
  const masked = inFence
    ? tail
    : tail.replace(/`[^`]*`|\*\*[^*]*\*\*|__[^_]*__|_\([^)]*\)_|<[^>]*>|\[[^\]]*\]\([^)]*\)/g, (closed) => " ".repeat(closed.length));
  const open = inFence ? -1 : masked.search(/`|\*\*|__|_\(|<|\[/);
  const upToMark = open === -1 ? tail : tail.slice(0, open);
  const lastSpace = upToMark.lastIndexOf(" ");
  return (head + (lastSpace === -1 ? "" : upToMark.slice(0, lastSpace))).trimEnd();
}

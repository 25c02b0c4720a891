/**
 * Markdown (what the model writes) to Slack mrkdwn (what Slack shows), with mass mentions defused.
 * Slack has no headings, tables or "**bold**": headings become bold lines, tables become code
 * blocks, lists get bullets. Outside Slack's own tokens, "&", "<" and ">" are escaped as Slack asks.
 */

/** Shown instead of a broadcast: "@" + zero-width space + name reads the same and pings nobody. */
const DEFUSED_AT = "@\u200B";
const FENCE = /^\s*(```+|~~~+)\s*([\w+#.-]*)\s*$/;
const TABLE_ROW = /^\s*\|.*\|\s*$/;
const TABLE_RULE = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;

export function markdownToMrkdwn(markdown: string): string {
  const lines = markdown.replace(/\r\n?/g, "\n").split("\n");
  const out: string[] = [];
  let fence: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const fenceMatch = FENCE.exec(line);
    if (fence !== undefined) {
      if (fenceMatch && fenceMatch[1]!.startsWith(fence[0]!) && fenceMatch[2] === "") {
        out.push("```");
        fence = undefined;
      } else {
        out.push(defusePlainBroadcasts(escapeText(line)));
      }
      continue;
    }
    if (fenceMatch) {
      fence = fenceMatch[1]!;
      out.push("```");
      continue;
    }
    if (TABLE_ROW.test(line) && TABLE_RULE.test(lines[i + 1] ?? "")) {
      const table: string[] = [];
      while (i < lines.length && TABLE_ROW.test(lines[i]!)) table.push(defusePlainBroadcasts(escapeText(lines[i++]!.trim())));
      i--;
      out.push("```", ...table, "```");
      continue;
    }
    out.push(convertLine(line));
  }
  if (fence !== undefined) out.push("```");
  return out.join("\n");
}

function convertLine(line: string): string {
  const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
  if (heading) {
    const title = heading[1]!.replace(/\*\*|__/g, "");
    return title === "" ? "" : `*${convertInline(title)}*`;
  }
  if (/^\s{0,3}([-*_])(\s*\1){2,}\s*$/.test(line)) return "──────────";
  const quote = /^\s{0,3}>\s?(.*)$/.exec(line);
  if (quote) return `> ${convertInline(quote[1]!)}`;
  const bullet = /^(\s*)[-*+]\s+(?:\[([ xX])\]\s+)?(.*)$/.exec(line);
  if (bullet) {
    const depth = Math.floor(bullet[1]!.replace(/\t/g, "  ").length / 2);
    const box = bullet[2] === undefined ? "" : bullet[2] === " " ? "☐ " : "☑ ";
    return `${"    ".repeat(depth)}${depth === 0 ? "•" : "◦"} ${box}${convertInline(bullet[3]!)}`;
  }
  const numbered = /^(\s*)(\d+)[.)]\s+(.*)$/.exec(line);
  if (numbered) {
    const depth = Math.floor(numbered[1]!.replace(/\t/g, "  ").length / 2);
    return `${"    ".repeat(depth)}${numbered[2]}. ${convertInline(numbered[3]!)}`;
  }
  return convertInline(line);
}

/**
 * Inline Markdown on one line. Code spans, links and Slack's own tokens are set aside as
 * placeholders first, so emphasis rules and escaping never reach inside them.
 */
function convertInline(text: string): string {
  const kept: string[] = [];
  const keep = (value: string) => `\u0000${kept.push(value) - 1}\u0000`;

  let s = text.replace(/(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g, (_m, _ticks: string, code: string) => keep(`\`${defusePlainBroadcasts(escapeText(code))}\``));
  s = s.replace(/<([^<>\s][^<>]*)>/g, (match, inner: string) => keep(slackToken(inner) ?? escapeText(match)));
  s = s.replace(/!?\[([^\]]*)\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g, (match, label: string, url: string) =>
    /^(https?:|mailto:)/i.test(url) ? keep(`<${url}|${linkLabel(label || url)}>`) : match,
  );
  s = escapeText(s);
  s = s.replace(/\*\*(?=\S)([\s\S]*?\S)\*\*/g, "\u0001$1\u0001");
  s = s.replace(/(^|[^\w])__(?=\S)([\s\S]*?\S)__(?![\w])/g, "$1\u0001$2\u0001");
  s = s.replace(/(^|[^*\w])\*([^\s*](?:[^*]*?[^\s*])?)\*(?![*\w])/g, "$1_$2_");
  s = s.replace(/~~(?=\S)([\s\S]*?\S)~~/g, "~$1~");
  s = s.replace(/\u0001/g, "*");
  s = defusePlainBroadcasts(s);
  return s.replace(/\u0000(\d+)\u0000/g, (_m, index: string) => kept[Number(index)]!);
}

/**
 * What to do with an angle-bracket token the model wrote: links, user and channel mentions and
 * dates pass; broadcasts and user-group mentions are defused; anything else is escaped (undefined).
 */
function slackToken(inner: string): string | undefined {
  if (/^(https?:\/\/|mailto:)[^\s|]+(\|[^<>]*)?$/i.test(inner)) return `<${inner}>`;
  if (/^[@#][A-Z0-9]+(\|[^<>]*)?$/.test(inner)) return `<${inner}>`;
  if (/^!date\^/.test(inner)) return `<${inner}>`;
  if (inner.startsWith("!")) return defuseSpecial(inner);
  return undefined;
}

/** "<!here>" → "@​here", "<!subteam^S1|@devs>" → "@​devs": readable, pings nobody. */
function defuseSpecial(inner: string): string {
  const [command, label] = inner.slice(1).split("|", 2) as [string, string | undefined];
  const name = (label ?? "").replace(/^@/, "") || (command.startsWith("subteam^") ? "group" : command.split("^")[0]!);
  return `${DEFUSED_AT}${escapeText(name)}`;
}

function defusePlainBroadcasts(text: string): string {
  return text.replace(/(^|[^\w])@(channel|here|everyone)\b/gi, `$1${DEFUSED_AT}$2`);
}

/**
 * For text that is already in Slack's format (what a user typed, echoed back by the bot):
 * keeps their links and mentions but defuses broadcasts and user-group mentions.
 */
export function defuseMassMentions(slackText: string): string {
  const tokensDefused = slackText.replace(/<(![^<>]*)>/g, (match, inner: string) => (/^!date\^/.test(inner) ? match : defuseSpecial(inner)));
  return defusePlainBroadcasts(tokensDefused);
}

function escapeText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function linkLabel(label: string): string {
  return escapeText(label.replace(/\*\*|__|`/g, "")).replace(/\|/g, "¦");
}

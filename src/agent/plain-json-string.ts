/**
 * JSON whose string a model wrote as plain text: raw line breaks and unescaped inner quotes, as
 * in `{"action": "Final Answer", "action_input": "He said "hi", then left.\nThe end."}`.
 * JSON ends that string at its first inner quote, and a general repair then guesses that the
 * words after it are a new key ("then left."). Read here as the writer meant it: the string
 * that breaks the JSON runs to the first quote after which the rest of the text is valid JSON.
 *
 * Linear in the text, with at most MAX_TRIES strict parses of it.
 */
const MAX_TRIES = 16;

/** Characters that may follow a string's closing quote in JSON. */
const AFTER_STRING = new Set([",", "}", "]", ":"]);
/** ...and that may follow a value's closing quote, where the value ends. */
const AFTER_VALUE = new Set([",", "}", "]"]);

export interface PlainRead {
  value: unknown;
  /** The string holds what looks like a key of its own (`"query": `): it may be a missing comma, not text. */
  holdsKey: boolean;
}

export function readPlainStringJson(text: string): PlainRead | undefined {
  const open = firstBrokenString(text);
  if (open === undefined) return undefined;
  let tries = 0;
  for (let i = open + 1; i < text.length && tries < MAX_TRIES; i++) {
    const ch = text[i]!;
    if (ch === "\\") {
      i++;
      continue;
    }
    if (ch !== '"' || !AFTER_VALUE.has(nextToken(text, i + 1))) continue;
    tries++;
    const inner = text.slice(open + 1, i);
    try {
      const value: unknown = JSON.parse(text.slice(0, open) + JSON.stringify(decodeEscapes(inner)) + text.slice(i + 1));
      return { value, holdsKey: /"[ \t]{0,8}:/.test(inner) };
    } catch {
      // the string does not end at this quote: try the next one
    }
  }
  return undefined;
}

/**
 * Where the first string opens that JSON cannot read: one holding a raw control character, or
 * one whose closing quote (by JSON's rules) is followed by something no string may be followed by.
 */
function firstBrokenString(text: string): number | undefined {
  let start = -1;
  let raw = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (start === -1) {
      if (ch === '"') {
        start = i;
        raw = false;
      }
      continue;
    }
    if (ch === "\\") i++;
    else if (ch < " ") raw = true;
    else if (ch === '"') {
      const next = nextToken(text, i + 1);
      if (raw || (next !== "" && !AFTER_STRING.has(next))) return start;
      start = -1;
    }
  }
  return undefined;
}

/** The next character that is not white space, or "" at the end. */
function nextToken(text: string, from: number): string {
  let i = from;
  while (i < text.length && text[i]! <= " ") i++;
  return text[i] ?? "";
}

const ESCAPES: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

/** JSON's escapes decoded; any other backslash, raw line break or quote kept as written. */
function decodeEscapes(text: string): string {
  return text.replace(/\\(["\\/bfnrt]|u[0-9a-fA-F]{4})/g, (_escape, code: string) =>
    code.length === 5 ? String.fromCharCode(Number.parseInt(code.slice(1), 16)) : ESCAPES[code]!,
  );
}

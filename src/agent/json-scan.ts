/**
 * One linear pass over JSON-ish text a model wrote, from an opening bracket: where the bracket
 * closes, how deep it nests, and, when it never closes, what the text stops on. Strings follow
 * JSON's own rules (double quotes, backslash escapes), so braces inside them do not count.
 * Every character is looked at a bounded number of times, whatever the input.
 */
export interface JsonScan {
  /** Index just past the bracket that closes the one at `start`, or -1 when it never closes. */
  end: number;
  /** Deepest nesting seen. */
  depth: number;
  /** Brackets still open where the text stops (empty when it closed). */
  open: string;
  /** The text stops inside a string. */
  inString: boolean;
  /** The last character before the stop that is not white space. */
  last: string;
  /** Habits of hand-written JSON seen outside strings, named for the log. */
  quirks: Set<Quirk>;
}

type Quirk = "single quotes" | "trailing comma" | "comment" | "raw control characters in a string";

const CLOSER: Record<string, string> = { "{": "}", "[": "]" };

export function scanJson(text: string, start: number, stop = text.length): JsonScan {
  const stack: string[] = [];
  const quirks = new Set<Quirk>();
  let depth = 0;
  let inString = false;
  let last = "";
  for (let i = start; i < stop; i++) {
    const ch = text[i]!;
    if (inString) {
      if (ch === "\\") i++;
      else if (ch === '"') inString = false;
      else if (ch < " ") quirks.add("raw control characters in a string");
      if (ch > " ") last = ch;
      continue;
    }
    if (ch <= " ") continue;
    last = ch;
    if (ch === '"') inString = true;
    else if (ch === "{" || ch === "[") {
      stack.push(ch);
      depth = Math.max(depth, stack.length);
    } else if (ch === "}" || ch === "]") {
      if (stack.length > 0 && CLOSER[stack.at(-1)!] === ch) stack.pop();
      if (stack.length === 0) return { end: i + 1, depth, open: "", inString: false, last, quirks };
    } else if (ch === "'") quirks.add("single quotes");
    else if (ch === "/") quirks.add("comment");
    else if (ch === "," && closesNext(text, i + 1, stop)) quirks.add("trailing comma");
  }
  return { end: -1, depth, open: stack.join(""), inString, last, quirks };
}

/**
 * Whether the next character that is not white space closes a bracket. Linear over a whole
 * scan: the white space it skips lies between this comma and the next token, and is skipped once.
 */
function closesNext(text: string, from: number, stop: number): boolean {
  let i = from;
  while (i < stop && text[i]! <= " ") i++;
  return text[i] === "}" || text[i] === "]";
}

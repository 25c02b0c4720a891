import { jsonrepair } from "jsonrepair";
import { MAX_JSON_DEPTH } from "./json-depth.js";
import { scanJson, type JsonScan } from "./json-scan.js";
import { readPlainStringJson } from "./plain-json-string.js";

/**
 * Reads JSON the way small models write it: strict JSON first; then, for an object or array,
 * the repairs jsonrepair makes (raw line breaks and tabs in strings, unescaped inner quotes,
 * single quotes, trailing commas, comments, Python's True/None, missing closing brackets).
 *
 * A missing end is repaired only when it is unambiguous, which depends on how the text ended:
 * - "finished": the writer stopped there (a text reply ends where the model stopped or at a stop
 *   sequence): a quote or bracket left open is closed; only a key with no value is refused.
 * - "may-be-cut": the text may have been cut short (native tool arguments, assembled by the
 *   server): only closing brackets may be missing, after a whole string, literal or bracket.
 *   Stopping inside a string or on a number (7.8 may have been 7.85) would make the repair a guess.
 */
export type JsonRead = { ok: true; value: unknown; repairs: string[] } | { ok: false; problem: string };
export type JsonEnding = "finished" | "may-be-cut";

/**
 * jsonrepair slows down with the square of the unescaped quotes in a string: 16k characters
 * of them take about 20 ms, 64k about 300 ms. Longer broken JSON is refused, not repaired.
 */
export const MAX_REPAIR_CHARS = 16_384;

const LITERAL_END = /(?:true|false|null|True|False|None)$/;

export function readModelJson(raw: string, ending: JsonEnding): JsonRead {
  const repairs: string[] = [];
  let text = raw.trim();
  const unfenced = insideFence(text);
  if (unfenced !== undefined) {
    text = unfenced;
    repairs.push("removed a markdown code fence");
  }
  let strictError: string;
  try {
    return { ok: true, value: JSON.parse(text), repairs };
  } catch (error) {
    strictError = (error as Error).message;
  }

  if (!text.startsWith("{") && !text.startsWith("[")) return { ok: false, problem: strictError };
  if (text.length > MAX_REPAIR_CHARS) {
    return { ok: false, problem: `${strictError}; at ${text.length} characters it is too long to repair` };
  }
  const scan = scanJson(text, 0);
  // jsonrepair recurses once per level
  if (scan.depth > MAX_JSON_DEPTH) return { ok: false, problem: `${strictError}; it is nested too deeply to repair` };
  if (scan.end === -1) {
    const cut = cutShort(text, scan, ending);
    if (cut) return { ok: false, problem: `it stops ${cut}, as if cut short; send the whole JSON again` };
    repairs.push(`closed ${scan.open.length || "a"} bracket${scan.open.length > 1 ? "s" : ""} left open`);
  }

  // A writer who stopped there meant a string with raw line breaks or inner quotes as plain text
  // (closing what was left open, when the text stops outside a string).
  const closed = scan.end !== -1 ? text : scan.inString ? undefined : text + closersOf(scan.open);
  const plain = ending === "finished" && closed !== undefined ? readPlainStringJson(closed) : undefined;
  if (plain && !plain.holdsKey) return { ok: true, value: plain.value, repairs: [...repairs, PLAIN_STRING] };
  let repaired: unknown;
  try {
    repaired = JSON.parse(jsonrepair(scan.quirks.has("single quotes") ? escapeApostrophes(text) : text));
  } catch {
    if (plain) return { ok: true, value: plain.value, repairs: [...repairs, PLAIN_STRING] };
    return { ok: false, problem: strictError };
  }
  // A string holding a key may be two values with a comma missing, which the repair reads; unless it made keys of the string's words.
  if (plain && inventsKeys(repaired, text)) return { ok: true, value: plain.value, repairs: [...repairs, PLAIN_STRING] };
  repairs.push(...scan.quirks);
  if (scan.quirks.size === 0 && scan.end !== -1) repairs.push("fixed JSON syntax");
  return { ok: true, value: repaired, repairs };
}

/** The brackets that close `open` ("{[" -> "]}"). */
function closersOf(open: string): string {
  return [...open]
    .reverse()
    .map((bracket) => (bracket === "{" ? "}" : "]"))
    .join("");
}

const PLAIN_STRING = "read a string with raw line breaks or inner quotes as written";

/** Whether a repaired value has a key the text never wrote as a quoted key. */
function inventsKeys(value: unknown, text: string): boolean {
  const pending = [value];
  while (pending.length > 0) {
    const current = pending.pop();
    if (typeof current !== "object" || current === null) continue;
    for (const [key, child] of Object.entries(current)) {
      if (!Array.isArray(current) && !text.includes(`"${key}"`) && !text.includes(`'${key}'`)) return true;
      pending.push(child);
    }
  }
  return false;
}

/**
 * An apostrophe between two letters ('It's sunny') is never a quote that opens or closes a
 * string; escaped, jsonrepair keeps it instead of ending the single-quoted string there.
 */
function escapeApostrophes(text: string): string {
  return text.replace(/(?<=\p{L})'(?=\p{L})/gu, "\\'");
}

/** Why an unclosed text looks cut short, or undefined when only closing brackets are missing. */
function cutShort(text: string, scan: JsonScan, ending: JsonEnding): string | undefined {
  if (scan.last === ":") return 'after ":", before its value';
  if (ending === "finished") return undefined;
  // A string whose last character is a closing bracket: the model forgot the quote, not the rest.
  if (scan.inString) return scan.last === "}" || scan.last === "]" ? undefined : "inside a string";
  if (scan.last === '"' || scan.last === "'" || scan.last === "}" || scan.last === "]") return undefined;
  if (/[0-9.]/.test(scan.last)) return "on a number";
  if (/[,[{]/.test(scan.last)) return `after "${scan.last}", before its value`;
  return LITERAL_END.test(text) ? undefined : "on an unquoted word";
}

/** The body of a text that is one markdown code block (```json ... ```), or undefined. */
export function insideFence(text: string): string | undefined {
  if (!text.startsWith("```") || !text.endsWith("```") || text.length < 6) return undefined;
  const firstBreak = text.indexOf("\n");
  if (firstBreak === -1 || firstBreak > text.length - 4) return undefined;
  // the opening line holds at most a language tag
  if (!/^```[a-zA-Z0-9_+-]{0,20}[ \t\r]{0,4}$/.test(text.slice(0, firstBreak))) return undefined;
  return text.slice(firstBreak + 1, -3).trim();
}

/** A tool's arguments sent as a JSON string holding the object, as some servers double-encode them. */
export function unwrapJsonString(value: unknown): { value: unknown; unwrapped: boolean } {
  if (typeof value !== "string" || !value.trim().startsWith("{")) return { value, unwrapped: false };
  try {
    const inner: unknown = JSON.parse(value);
    if (typeof inner === "object" && inner !== null && !Array.isArray(inner)) return { value: inner, unwrapped: true };
  } catch {
    // not JSON inside: the string is the value
  }
  return { value, unwrapped: false };
}

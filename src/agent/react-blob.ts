import { MAX_JSON_DEPTH, TOO_DEEP } from "./json-depth.js";
import { scanJson } from "./json-scan.js";
import { MAX_REPAIR_CHARS, readModelJson } from "./tolerant-json.js";

/**
 * Finds the JSON-blob action in a model's text: the first {...} that names a tool or the final
 * answer, read by matching braces outside strings (so a ``` or a brace inside a string does not
 * end it) and parsed tolerantly. Keys are read the way models spell them: "action", "tool",
 * "tool_name", or "name" with "arguments" / "parameters" (the function-call shape many local
 * models write as text, also inside <tool_call> tags).
 */
export type BlobFind =
  | { kind: "blob"; start: number; end: number; tool: string; input: unknown; hasInput: boolean }
  | { kind: "broken"; start: number; problem: string }
  /** The text is one JSON object that names no action, or holds a blob shaped as an action that lacks its tool. */
  | { kind: "keyless"; start: number }
  | { kind: "none" };

const TOOL_KEYS = ["action", "tool", "toolname", "actionname", "function", "name"];
const INPUT_KEYS = ["actioninput", "toolinput", "input", "arguments", "args", "parameters", "params"];
/** Text that shows a blob was meant as an action even when it cannot be read. */
const ACTION_KEY = /(?:^|[{,\s"'])(?:action|tool|tool_name|action_name|name|action_input|tool_input|thought|final_answer)["']?[ \t]{0,8}:/i;
/**
 * Keys only the agent's own format uses: a blob holding one but naming no tool is an action whose
 * "action" key was left out, wherever it stands; never an example the answer shows.
 */
const SCAFFOLDING_KEYS = ["actioninput", "toolinput", "thought", "finalanswer"];

export function findActionBlob(text: string): BlobFind {
  let from = text.indexOf("{");
  let first: { start: number; end: number } | undefined;
  let keyless: number | undefined;
  // Repairs cost more than a strict parse: only spans that name an action get one, within one budget.
  let repairBudget = MAX_REPAIR_CHARS;
  while (from !== -1) {
    const scan = scanJson(text, from);
    const closed = scan.end !== -1;
    const end = closed ? scan.end : unclosedEnd(text, from);
    const candidate = text.slice(from, end);
    first ??= { start: from, end };
    if (scan.depth > MAX_JSON_DEPTH && ACTION_KEY.test(candidate)) {
      return { kind: "broken", start: fenceBefore(text, from), problem: TOO_DEEP };
    }
    const strict = parseStrict(candidate);
    const action = strict.ok ? asAction(strict.value) : undefined;
    if (action) return { kind: "blob", start: fenceBefore(text, from), end, ...action };
    if (strict.ok && isToolless(strict.value)) keyless ??= from;
    if (!strict.ok && ACTION_KEY.test(candidate)) {
      const read = candidate.length <= repairBudget ? readModelJson(candidate, "finished") : { ok: false as const, problem: "it is too long to repair" };
      repairBudget -= candidate.length;
      const repaired = read.ok ? asAction(read.value) : undefined;
      if (repaired) return { kind: "blob", start: fenceBefore(text, from), end, ...repaired };
      if (!read.ok) return { kind: "broken", start: fenceBefore(text, from), problem: read.problem };
      if (isToolless(read.value)) keyless ??= from;
    }
    if (!closed) break;
    from = text.indexOf("{", scan.end);
  }
  if (keyless !== undefined) return { kind: "keyless", start: keyless };
  if (first && isOnlyContent(text, first.start, first.end)) return { kind: "keyless", start: first.start };
  return { kind: "none" };
}

/**
 * A blob that never closes runs to the closing fence of its code block if there is one
 * (the last line that starts with ```), else to the end of the text.
 */
function unclosedEnd(text: string, from: number): number {
  const fence = text.lastIndexOf("\n```");
  return fence > from ? fence : text.length;
}

/** Where the blob's code block begins when the line before it opens one (```json), else the blob's start. */
function fenceBefore(text: string, from: number): number {
  let i = from;
  while (i > 0 && text[i - 1]! <= " ") i--;
  const lineStart = text.lastIndexOf("\n", i - 1) + 1;
  if (i - lineStart > 40) return from;
  return /^[ \t]{0,8}```[a-zA-Z0-9_-]{0,20}$/.test(text.slice(lineStart, i)) ? lineStart : from;
}

/** Whether nothing but white space, a code fence and "Thought:" lines surround the span. */
function isOnlyContent(text: string, start: number, end: number): boolean {
  const around = `${text.slice(0, start)}\n${text.slice(end)}`;
  return around.split("\n").every((line) => /^(?:```[a-zA-Z0-9_-]{0,20}|thought[ \t]{0,3}:.*)?$/i.test(line.trim()));
}

function parseStrict(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function asAction(value: unknown): { tool: string; input: unknown; hasInput: boolean } | undefined {
  const object = asObject(value);
  if (!object) return undefined;
  const wrapped = asObject(object.get("function"));
  if (wrapped && typeof wrapped.get("name") === "string") return asAction(Object.fromEntries(wrapped));
  const tool = TOOL_KEYS.map((key) => object.get(key)).find((v): v is string => typeof v === "string" && v.trim() !== "");
  const inputKey = INPUT_KEYS.find((key) => object.has(key));
  if (tool === undefined) return undefined;
  // "name" alone is a person's or a thing's name in an example the answer shows, not a tool call
  const named = ["action", "tool", "toolname", "actionname", "function"].some((key) => typeof object.get(key) === "string");
  if (!named && inputKey === undefined) return undefined;
  return { tool: tool.trim(), input: inputKey === undefined ? undefined : object.get(inputKey), hasInput: inputKey !== undefined };
}

/** An object with the agent format's own keys that names no tool (asAction found none). */
function isToolless(value: unknown): boolean {
  const object = asObject(value);
  return object !== undefined && SCAFFOLDING_KEYS.some((key) => object.has(key));
}

/** The object's entries under normalised keys: "Action Input", "action_input" and "actionInput" alike. */
function asObject(value: unknown): Map<string, unknown> | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  return new Map(Object.entries(value).map(([key, v]) => [key.toLowerCase().replace(/[\s_-]/g, ""), v]));
}

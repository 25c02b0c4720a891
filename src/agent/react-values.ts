import { MAX_JSON_DEPTH, TOO_DEEP } from "./json-depth.js";
import { scanJson } from "./json-scan.js";
import { insideFence, readModelJson, unwrapJsonString } from "./tolerant-json.js";

/**
 * The values a text-protocol reply holds, read from what its labels and blobs contain: the tool
 * an "Action:" line names, an action's input, and the answer as the user will see it. Each
 * function looks at its text a bounded number of times.
 */

export const FINAL_NAME = /^final[ _-]?answer(?![a-z])/i;
/** Letters and digits of any script: a tool may be named "加法" or "búsqueda". */
const TOOL_NAME = /^[\p{L}\p{N}\p{M}_-]+/u;
/** "Action: None" is how some models say they need no tool. */
const NO_TOOL = /^(?:none|null|nothing|no)$/i;
const EMPTY_INPUT = /^(?:none|null|n\/a|no input)?$/i;

export type ToolName = { kind: "tool"; tool: string } | { kind: "call"; tool: string; args: string } | { kind: "final"; rest: string } | { kind: "none" };

/**
 * The tool an "Action:" line names: "calculator", "`calculator`", "[calculator]", "**calculator**",
 * "calculator (to do the sum)", "calculator: adds numbers", or a call "calculator({...})".
 */
export function toolName(line: string): ToolName {
  const text = line.replace(/^[\s`'"*_[]+/, "");
  const final = FINAL_NAME.exec(text);
  if (final) return { kind: "final", rest: text.slice(final[0].length).replace(/^[\s`'"*_\]:]+/, "") };
  const tool = TOOL_NAME.exec(text)?.[0];
  if (tool === undefined || NO_TOOL.test(tool)) return { kind: "none" };
  const after = text.slice(tool.length);
  if (after.startsWith("(") || (after.startsWith("[") && !after.startsWith("[]"))) {
    return { kind: "call", tool, args: withoutClosingBracket(after.slice(1)) };
  }
  return { kind: "tool", tool };
}

function withoutClosingBracket(text: string): string {
  let end = text.trimEnd().length;
  while (end > 0 && (text[end - 1] === "`" || text[end - 1] === "*")) end--;
  const trimmed = text.slice(0, end).trimEnd();
  return trimmed.endsWith(")") || trimmed.endsWith("]") ? trimmed.slice(0, -1) : trimmed;
}

export function splitFirstLine(text: string): [string, string] {
  const lineBreak = text.indexOf("\n");
  return lineBreak === -1 ? [text.trim(), ""] : [text.slice(0, lineBreak).trim(), text.slice(lineBreak + 1)];
}

type InputRead = { ok: true; value: unknown } | { ok: false; problem: string };

/** What an input is read for: the tool it goes to, as far as the parser knows it. */
export interface InputTarget {
  /** The tool takes one string: text that is not JSON is that string, not an error. */
  takesText: boolean;
  /** Whether a callee written around the input (`add({...})`) names the tool itself. */
  isTool(callee: string): boolean;
}

const ANY_TOOL: InputTarget = { takesText: false, isTool: () => false };

/**
 * An action's input: JSON when it looks like JSON, else the text without quotes and markdown
 * around it. `inCall`: the text stood between a call's parentheses, where `key="value"` pairs
 * are keyword arguments.
 */
export function readActionInput(raw: string, target: InputTarget = ANY_TOOL, inCall = false): InputRead {
  let text = withoutEmphasis(raw.trim(), true);
  text = insideFence(text) ?? withoutOpeningFence(text);
  if (text.length > 1 && text.startsWith("`") && text.endsWith("`")) text = text.slice(1, -1).trim();
  const called = inCall ? undefined : toolCallArguments(text, target);
  if (called !== undefined) return readActionInput(called, target, true);
  if (EMPTY_INPUT.test(text) || text === "{}") return { ok: true, value: {} };
  if (text.startsWith("{") || text.startsWith("[")) {
    // the input ends where its object closes: lines the model added after it are not part of it
    const scan = scanJson(text, 0);
    if (scan.depth > MAX_JSON_DEPTH) return { ok: false, problem: TOO_DEEP };
    const span = scan.end === -1 ? text : text.slice(0, scan.end);
    const placeholder = target.takesText ? bracketedText(span) : undefined;
    if (placeholder !== undefined) return { ok: true, value: placeholder };
    const json = readModelJson(span, "finished");
    if (json.ok) return { ok: true, value: target.takesText ? onlyString(unwrapJsonString(json.value).value) : unwrapJsonString(json.value).value };
    // a one-string tool gets what the model wrote; for any other tool it is an error the model can fix
    return target.takesText ? { ok: true, value: text } : json;
  }
  const keywords = inCall ? keywordArguments(text) : undefined;
  if (keywords) return { ok: true, value: keywords };
  try {
    return { ok: true, value: unwrapJsonString(JSON.parse(text)).value };
  } catch {
    return { ok: true, value: withoutQuotes(text) };
  }
}

const CALL = /^([\p{L}_][\p{L}\p{N}_.-]{0,63})[ \t]?\(/u;

/**
 * "add({...})", "QueryEngineTool({...})": the input written as a call of the tool itself, or of
 * a tool class (a name ending in "Tool"), with JSON or keyword arguments: the text between the
 * parentheses. Other calls ("sqrt(81)", "print('hi')") are the input as written.
 */
function toolCallArguments(text: string, target: InputTarget): string | undefined {
  const call = CALL.exec(text);
  if (!call || closingParen(text, call[0].length - 1) !== text.length - 1) return undefined;
  const callee = call[1]!;
  if (!target.isTool(callee) && !/tool$/i.test(callee)) return undefined;
  const inner = text.slice(call[0].length, -1).trim();
  return inner.startsWith("{") || keywordArguments(inner) ? inner : undefined;
}

/** Where the parenthesis opened at `open` closes, outside quoted strings; -1 if it never does. */
export function closingParen(text: string, open: number): number {
  let depth = 0;
  let quote = "";
  for (let i = open; i < text.length; i++) {
    const ch = text[i]!;
    if (quote !== "") {
      if (ch === "\\") i++;
      else if (ch === quote) quote = "";
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === "(") depth++;
    else if (ch === ")" && --depth === 0) return i;
  }
  return -1;
}

/**
 * Python's keyword arguments, as models write tool calls: `query="Ada Lovelace", limit=3`.
 * Values are quoted strings, numbers, or True/False/None; anything else is not this form.
 */
const KEYWORD_PAIR =
  /[ \t]*([A-Za-z_][A-Za-z0-9_]{0,63})[ \t]*=[ \t]*("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|-?\d+(?:\.\d+)?|True|False|None|true|false|null)[ \t]*(?:,|$)/y;

function keywordArguments(text: string): Record<string, unknown> | undefined {
  const args: Record<string, unknown> = {};
  const pair = KEYWORD_PAIR;
  let at = 0;
  while (at < text.length) {
    pair.lastIndex = at;
    const match = pair.exec(text);
    if (!match) return undefined;
    args[match[1]!] = literal(match[2]!);
    at = pair.lastIndex;
  }
  return Object.keys(args).length > 0 ? args : undefined;
}

function literal(token: string): unknown {
  if (token === "True" || token === "true") return true;
  if (token === "False" || token === "false") return false;
  if (token === "None" || token === "null") return null;
  if (token.startsWith("'")) return token.slice(1, -1).replace(/\\(['\\])/g, "$1");
  if (token.startsWith('"')) {
    try {
      return JSON.parse(token);
    } catch {
      return token.slice(1, -1);
    }
  }
  return Number(token);
}

/** A quoted string read by JSON's rules, or as written between its quotes where they refuse it (a raw tab, a bad escape). */
function jsonString(quoted: string): string {
  try {
    return JSON.parse(quoted) as string;
  } catch {
    return quoted.slice(1, -1);
  }
}

/** `["weather in SF"]`: the one string a one-string tool was meant to get. */
function onlyString(value: unknown): unknown {
  return Array.isArray(value) && value.length === 1 && typeof value[0] === "string" ? value[0] : value;
}

/**
 * `{temperature in SF}`, `[query]`: text in the brackets of a prompt's placeholder, not JSON;
 * `{"Paris, France"}`, a quoted string in braces (a Python set). Undefined when the span is JSON
 * or holds JSON's marks (quotes, colons, nested brackets) otherwise.
 */
function bracketedText(span: string): string | undefined {
  const close = span.startsWith("{") ? "}" : "]";
  if (!span.endsWith(close)) return undefined;
  const inner = span.slice(1, -1).trim();
  if (close === "}" && /^"(?:[^"\\\n]|\\.)*"$/.test(inner)) return jsonString(inner);
  if (close === "}" && /^'[^'\n]*'$/.test(inner)) return inner.slice(1, -1);
  if (inner === "" || /["':{}[\]]/.test(inner)) return undefined;
  try {
    JSON.parse(span);
    return undefined;
  } catch {
    return inner;
  }
}

/** A stray `**` left on one side; with `wrapped`, also `**2+2**` around the whole text. */
function withoutEmphasis(text: string, wrapped = false): string {
  let result = text;
  for (const mark of ["**", "__"]) {
    const count = result.split(mark).length - 1;
    const inner = result.slice(mark.length, -mark.length);
    if (wrapped && count === 2 && result.startsWith(mark) && result.endsWith(mark)) result = inner;
    else if (count === 1 && result.startsWith(mark)) result = result.slice(mark.length);
    else if (count === 1 && result.endsWith(mark)) result = result.slice(0, -mark.length);
  }
  return result.trim();
}

/** A code block whose closing fence was cut off by a stop sequence. */
function withoutOpeningFence(text: string): string {
  if (!text.startsWith("```")) return text;
  const lineBreak = text.indexOf("\n");
  return lineBreak === -1 ? "" : text.slice(lineBreak + 1).trim();
}

/** 'Alan Turing', "Alan Turing", or a quote left open at either end. */
function withoutQuotes(text: string): string {
  const first = text[0];
  const last = text.at(-1);
  if ((first === '"' || first === "'") && text.length > 1 && last === first) return text.slice(1, -1);
  if ((first === '"' || first === "'") && text.indexOf(first, 1) === -1) return text.slice(1).trim();
  if ((last === '"' || last === "'") && text.indexOf(last) === text.length - 1) return text.slice(0, -1).trim();
  return text;
}

/** Text after the tool line, taken as the input only when it is JSON or a code block. */
export function jsonLooking(text: string): string {
  const trimmed = text.trim();
  return trimmed.startsWith("{") || trimmed.startsWith("```") ? trimmed : "";
}

/** The answer as the user sees it: no quotes around it, never a bare `""`. */
export function finalText(raw: string): string {
  const text = withoutEmphasis(raw.trim());
  if (text.length >= 2 && text.startsWith('"') && text.endsWith('"') && !text.slice(1, -1).includes('"')) {
    return text.slice(1, -1).trim();
  }
  return text === "''" ? "" : text;
}

/** A Final Answer blob's action_input: text, a number, or an object holding the text. */
export function finalValue(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return finalText(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  const strings = Object.values(value).filter((v): v is string => typeof v === "string");
  if (strings.length === 1 && Object.keys(value).length === 1) return finalText(strings[0]!);
  return Object.keys(value).length === 0 ? "" : JSON.stringify(value);
}

/** A last line that is the start of "Observation", written before a stop or a length limit cut it. */
export function withoutPartialObservation(text: string): string {
  const lineBreak = text.lastIndexOf("\n");
  const last = text
    .slice(lineBreak + 1)
    .trim()
    .toLowerCase();
  if (lineBreak === -1 || last.length < 3 || !"observation:".startsWith(last)) return text;
  return text.slice(0, lineBreak);
}

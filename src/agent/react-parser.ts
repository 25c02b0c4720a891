/**
 * Reads what a model without native tool calling wrote. Tolerant by design: models wrap the
 * JSON blob in fences of any case, add prose around it, fall back to the MRKL
 * "Action: / Action Input:" form, or just answer in plain text.
 */
export type AgentOutput =
  | { kind: "action"; tool: string; input: unknown }
  | { kind: "final"; output: string };

export class OutputParseError extends Error {
  override readonly name = "OutputParseError";
  constructor(
    message: string,
    readonly text: string,
  ) {
    super(message);
  }
}

const FINAL_ANSWER = /^final[\s_-]*answer$/i;
const FENCE = /```[ \t]*([a-z0-9_-]*)[ \t]*\r?\n?([\s\S]*?)```/gi;
const MRKL_ACTION = /^[ \t]*Action[ \t]*\d*[ \t]*:[ \t]*(.*)$/im;
const MRKL_INPUT = /^[ \t]*Action[ \t]*\d*[ \t]*Input[ \t]*\d*[ \t]*:[ \t]*([\s\S]*)$/im;
const MRKL_FINAL = /^[ \t]*Final[ \t]*Answer[ \t]*:[ \t]*([\s\S]*)$/im;
const CAT_FINAL = /^[ \t]*AI[ \t]*:[ \t]*([\s\S]*)$/m;

export function parseAgentOutput(text: string): AgentOutput {
  const trimmed = text.trim();
  if (trimmed === "") throw new OutputParseError("the reply was empty", text);

  const blob = findJsonBlob(trimmed);
  if (blob.kind === "object") return fromJsonBlob(blob.value, text);
  if (blob.kind === "broken") {
    throw new OutputParseError(`the JSON blob could not be read (${blob.reason})`, text);
  }

  const mrkl = fromMrkl(trimmed);
  if (mrkl) return mrkl;

  const cat = CAT_FINAL.exec(trimmed);
  if (cat && cat[1]!.trim()) return { kind: "final", output: cat[1]!.trim() };

  return { kind: "final", output: stripLeadingThought(trimmed) };
}

function fromJsonBlob(value: Record<string, unknown>, text: string): AgentOutput {
  const action = value.action ?? value.tool ?? value.name;
  if (typeof action !== "string" || action.trim() === "") {
    throw new OutputParseError('the JSON blob needs an "action" key naming a tool or "Final Answer"', text);
  }
  const input = value.action_input ?? value.actionInput ?? value.input ?? value.arguments ?? value.args;
  if (FINAL_ANSWER.test(action.trim())) {
    return { kind: "final", output: typeof input === "string" ? input : JSON.stringify(input ?? "") };
  }
  return { kind: "action", tool: action.trim(), input: input ?? {} };
}

function fromMrkl(text: string): AgentOutput | undefined {
  const action = MRKL_ACTION.exec(text);
  const final = MRKL_FINAL.exec(text);
  if (action && (!final || action.index < final.index)) {
    const tool = action[1]!.trim().replace(/^[`'"[]+|[`'"\]]+$/g, "");
    const inputMatch = MRKL_INPUT.exec(text.slice(action.index));
    // Anything after a hallucinated "Observation:" is the model talking to itself.
    const rawInput = inputMatch ? inputMatch[1]!.split(/^\s*Observation\s*:/im)[0]!.trim() : "";
    return { kind: "action", tool, input: readActionInput(rawInput) };
  }
  if (final) return { kind: "final", output: final[1]!.trim() };
  return undefined;
}

function readActionInput(raw: string): unknown {
  const unquoted = raw.replace(/^```[a-z]*\s*|```$/gi, "").trim();
  if (unquoted === "" || /^none$/i.test(unquoted)) return {};
  try {
    return JSON.parse(unquoted);
  } catch {
    return unquoted.replace(/^(['"])([\s\S]*)\1$/, "$2");
  }
}

type BlobSearch =
  | { kind: "object"; value: Record<string, unknown> }
  | { kind: "broken"; reason: string }
  | { kind: "none" };

/** A fenced block first (any language tag, any case), then a bare {...} anywhere in the text. */
function findJsonBlob(text: string): BlobSearch {
  for (const match of text.matchAll(FENCE)) {
    const language = match[1]!.toLowerCase();
    const body = match[2]!.trim();
    if (language !== "" && language !== "json" && language !== "json5") continue;
    if (!body.startsWith("{")) continue;
    try {
      const value = JSON.parse(body);
      if (isObject(value)) return { kind: "object", value };
    } catch (error) {
      return { kind: "broken", reason: (error as Error).message };
    }
  }
  for (const candidate of balancedObjects(text)) {
    try {
      const value = JSON.parse(candidate);
      if (isObject(value) && ("action" in value || "action_input" in value)) return { kind: "object", value };
    } catch {
      if (/"action"\s*:/.test(candidate)) return { kind: "broken", reason: "it is not valid JSON" };
    }
  }
  return { kind: "none" };
}

/** Every top-level {...} span, matching braces outside JSON strings. */
function* balancedObjects(text: string): Generator<string> {
  let start = text.indexOf("{");
  while (start !== -1) {
    let depth = 0;
    let inString = false;
    let end = -1;
    for (let i = start; i < text.length; i++) {
      const ch = text[i];
      if (inString) {
        if (ch === "\\") i++;
        else if (ch === '"') inString = false;
      } else if (ch === '"') inString = true;
      else if (ch === "{") depth++;
      else if (ch === "}" && --depth === 0) {
        end = i;
        break;
      }
    }
    if (end === -1) {
      yield text.slice(start); // unterminated: reported as broken when it looks like an action
      return;
    }
    yield text.slice(start, end + 1);
    start = text.indexOf("{", end + 1);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function stripLeadingThought(text: string): string {
  const rest = text.replace(/^\s*Thought\s*:[^\n]*\n+/i, "").trim();
  return rest === "" ? text : rest;
}

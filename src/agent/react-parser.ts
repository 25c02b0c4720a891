import { scanJson } from "./json-scan.js";
import { findActionBlob, type BlobFind } from "./react-blob.js";
import { findSegments, type Segment } from "./react-labels.js";
import { KnownTools, type ToolShape } from "./react-tools.js";
import {
  closingParen,
  FINAL_NAME,
  finalText,
  finalValue,
  type InputTarget,
  jsonLooking,
  readActionInput,
  splitFirstLine,
  toolName,
  withoutPartialObservation,
} from "./react-values.js";
import { insideFence, unwrapJsonString } from "./tolerant-json.js";
import { BotError } from "../errors.js";

/**
 * Reads what a model without native tool calling wrote: a JSON blob (fenced or bare, with the
 * habits of hand-written JSON), the MRKL "Action: / Action Input:" form in its many spellings,
 * a "Final Answer:", or plain prose, which is the answer. What comes first decides: a final
 * answer followed by an action is the answer; an action followed by an observation, thought or
 * final answer the model invented is the action, cut where the invention begins.
 *
 * With the tools the turn offers, a tool's name is read as the tool it means ("WikipediaSearch"
 * for wikipedia_search), a reply that is only a call of one ("add({...})") is that action, and a
 * one-string tool's input is text even where it looks like broken JSON.
 *
 * A pure function of the whole text, and linear in it: only the first MAX_READ_CHARS are read,
 * and nothing in the parser backtracks over a long run of one character.
 */
export type AgentOutput = { kind: "action"; tool: string; input: unknown } | { kind: "final"; output: string };

/** What the model should have written instead: picks the example shown with the error. */
export type ExpectedForm = "action" | "final" | "either";

export class OutputParseError extends BotError<"model_output_unreadable"> {
  override readonly name = "OutputParseError";
  constructor(
    message: string,
    readonly text: string,
    readonly expected: ExpectedForm = "either",
  ) {
    super("model_output_unreadable", message);
  }
}

/**
 * The parser reads this much of a reply and ignores the rest. 64k characters is some 16k
 * tokens, more than any action or chat answer needs; past it, a local model is usually looping.
 */
export const MAX_READ_CHARS = 65_536;

export function parseAgentOutput(text: string, tools: readonly ToolShape[] = []): AgentOutput {
  const body = withoutReasoning(text.slice(0, MAX_READ_CHARS), text).trim();
  if (body === "") throw new OutputParseError("the reply was empty", text);
  const segments = findSegments(body);
  const blob = findActionBlob(body);
  const blobStart = blob.kind === "blob" || blob.kind === "broken" ? blob.start : Infinity;
  const action = segments.findIndex((segment) => segment.label === "action");
  const final = segments.findIndex((segment) => segment.label === "final" || segment.label === "ai");
  const actionStart = action === -1 ? Infinity : segments[action]!.start;
  const finalStart = final === -1 ? Infinity : segments[final]!.start;

  const read = new Reader(body, segments, blob, text, new KnownTools(tools));
  if (finalStart < actionStart && finalStart < blobStart) return read.finalAnswer(final);
  if (actionStart < blobStart) return read.mrklAction(action);
  if (blob.kind !== "none" && blob.kind !== "keyless") return read.blob();
  if (segments.some((segment) => segment.label === "input")) {
    throw new OutputParseError('it has an "Action Input:" but no "Action:" line naming the tool', text, "action");
  }
  if (blob.kind === "keyless") {
    throw new OutputParseError('the JSON blob needs an "action" key naming a tool or "Final Answer"', text);
  }
  return read.bareCall() ?? read.prose();
}

class Reader {
  constructor(
    private readonly body: string,
    private readonly segments: Segment[],
    private readonly found: BlobFind,
    private readonly text: string,
    private readonly tools: KnownTools,
  ) {}

  /** "Final Answer: ..." up to the next label or action blob: what follows it is dropped. */
  finalAnswer(index: number): AgentOutput {
    const segment = this.segments[index]!;
    const blob = this.found;
    const blobInside = blob.kind === "blob" && blob.start >= segment.valueStart && blob.start < segment.end;
    const output = finalText(this.valueOf(segment, blobInside ? blob.start : segment.end));
    if (output !== "") return { kind: "final", output };
    // "Final Answer:" with the answer given as a JSON blob after it
    if (blobInside) return this.blob();
    throw new OutputParseError('"Final Answer:" has no text for the user', this.text, "final");
  }

  mrklAction(index: number): AgentOutput {
    const segment = this.segments[index]!;
    const next = this.segments[index + 1];
    if (next?.label === "final" && !this.body.slice(segment.valueStart, next.start).includes("\n")) {
      throw new OutputParseError('it puts "Final Answer:" inside an "Action:" line', this.text, "final");
    }
    const section = this.body.slice(segment.valueStart, segment.end);
    let [line, rest] = splitFirstLine(section);
    const blob = this.found;
    const blobInSection = blob.kind !== "none" && blob.kind !== "keyless" && blob.start > segment.start && blob.start < segment.end;
    // Structured-chat form: "Action:" followed by the JSON blob, on its line or the next
    if (blobInSection && (line === "" || line.startsWith("```") || line.startsWith("{"))) return this.blob();
    // "Action:" with the tool's name on the next line
    if (line === "") [line, rest] = splitFirstLine(rest.trimStart());

    const name = toolName(line);
    const input = this.inputAfter(index);
    if (name.kind === "final") {
      const output = finalText(input === undefined ? name.rest || rest : this.valueOf(input));
      if (output !== "") return { kind: "final", output };
      throw new OutputParseError('"Action: Final Answer" has no text for the user', this.text, "final");
    }
    // "Action: Wikipedia Search": an offered tool's name written in words, which the first word alone is not
    const spelled = name.kind === "call" || (name.kind === "tool" && this.tools.find(name.tool)) ? undefined : this.tools.find(wordsOf(line));
    if (spelled === undefined && name.kind === "none") throw new OutputParseError('"Action:" names no tool', this.text, "action");
    const written = spelled ?? (name.kind === "none" ? "" : name.tool);
    const tool = spelled ?? this.tools.resolve(written);
    if (spelled === undefined && name.kind === "call") return { kind: "action", tool, input: this.actionInput(name.args, this.targetOf(tool, written), true) };
    if (input === undefined && blobInSection) return this.blob();
    const raw = input === undefined ? jsonLooking(rest) : this.inputText(input);
    return { kind: "action", tool, input: this.actionInput(raw, this.targetOf(tool, written)) };
  }

  /** A reply that is only a call of an offered tool, `add({"a": 1})` or `search(query="x")`: that action. */
  bareCall(): AgentOutput | undefined {
    if (this.tools.empty) return undefined;
    const kept = this.unlabelled().trim();
    const text = insideFence(kept) ?? kept;
    const call = /^([\p{L}\p{N}_.-]{1,64})[ \t]?\(/u.exec(text);
    const tool = call ? this.tools.find(call[1]!) : undefined;
    if (!call || tool === undefined || closingParen(text, call[0].length - 1) !== text.length - 1) return undefined;
    return { kind: "action", tool, input: this.actionInput(text.slice(call[0].length, -1), this.targetOf(tool, call[1]!), true) };
  }

  blob(): AgentOutput {
    const blob = this.found;
    if (blob.kind === "broken") {
      throw new OutputParseError(`the JSON blob could not be read: ${blob.problem}`, this.text, "action");
    }
    if (blob.kind !== "blob") throw new Error("no blob to read");
    if (FINAL_NAME.test(blob.tool)) {
      const output = blob.hasInput ? finalValue(blob.input) : "";
      if (output !== "") return { kind: "final", output };
      throw new OutputParseError('the Final Answer blob has no "action_input" text for the user', this.text, "final");
    }
    const input = blob.input === undefined || blob.input === null ? {} : unwrapJsonString(blob.input).value;
    return { kind: "action", tool: this.tools.resolve(blob.tool), input };
  }

  /** Plain prose is the answer, without the lines that are only the model's scaffolding. */
  prose(): AgentOutput {
    const output = finalText(this.unlabelled());
    if (output !== "") return { kind: "final", output };
    throw new OutputParseError("it has a Thought but no Action and no Final Answer", this.text);
  }

  /** The reply without the lines that carry a label. */
  private unlabelled(): string {
    const kept: string[] = [];
    let next = 0;
    let lineStart = 0;
    for (const line of this.body.split("\n")) {
      const lineEnd = lineStart + line.length;
      let labelled = false;
      while (next < this.segments.length && this.segments[next]!.start <= lineEnd) {
        labelled = true;
        next++;
      }
      if (!labelled) kept.push(line);
      lineStart = lineEnd + 1;
    }
    return kept.join("\n");
  }

  /** The "Action Input:" that belongs to the action at `index`: before any other step label. */
  private inputAfter(index: number): Segment | undefined {
    for (const segment of this.segments.slice(index + 1)) {
      if (segment.label === "input") return segment;
      if (segment.label !== "thought") return undefined;
    }
    return undefined;
  }

  /** What the input of a call to `tool`, written `written`, is read for. */
  private targetOf(tool: string, written: string): InputTarget {
    return { takesText: this.tools.takesText(tool), isTool: (callee) => callee === written || this.tools.find(callee) === tool };
  }

  private actionInput(raw: string, target: InputTarget, inCall = false): unknown {
    const input = readActionInput(raw, target, inCall);
    if (input.ok) return input.value;
    throw new OutputParseError(`the Action Input could not be read: ${input.problem}`, this.text, "action");
  }

  /** A segment's text; at the very end of the reply, without a half-written "Obs" line. */
  private valueOf(segment: Segment, end = segment.end): string {
    const value = this.body.slice(segment.valueStart, end);
    return end === this.body.length ? withoutPartialObservation(value) : value;
  }

  /**
   * An input that starts as JSON runs to its closing brace, even past a line inside one of its
   * strings that looks like a label; otherwise it ends where the next label begins.
   */
  private inputText(segment: Segment): string {
    const start = this.body.slice(segment.valueStart, segment.end).search(/\S/);
    const open = segment.valueStart + Math.max(start, 0);
    if (start !== -1 && this.body[open] === "{") {
      const scan = scanJson(this.body, open);
      if (scan.end > segment.end) return this.body.slice(open, scan.end);
    }
    return this.valueOf(segment);
  }
}

/** An Action line's words without the markdown and quotes around them. */
function wordsOf(line: string): string {
  return line.replace(/[`*"'[\]]/g, "").trim();
}

/**
 * Reasoning models (DeepSeek-R1, Qwen3) write their thinking inside <think>...</think> first;
 * some templates open the tag in the prompt, so only its end is in the reply.
 */
function withoutReasoning(text: string, original: string): string {
  const close = text.indexOf("</think>");
  const open = text.indexOf("<think>");
  if (close !== -1 && (open === -1 || open < close) && text.slice(0, Math.max(open, 0)).trim() === "") {
    return text.slice(close + "</think>".length);
  }
  if (open !== -1 && close === -1 && text.slice(0, open).trim() === "") {
    throw new OutputParseError("the reply is only reasoning inside <think>, with no Action and no Final Answer", original);
  }
  return text;
}

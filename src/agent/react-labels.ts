/**
 * Finds the ReAct scaffolding labels in a model's text: "Thought:", "Action:", "Action Input:",
 * "Observation:", "Final Answer:" and the conversational "AI:". A label counts at the start of a
 * line, after markdown (`**Action:**`, `### Thought:`, `- Action 1:`), in any case and spelling
 * (`Action_Input`, `final answer`). Inside a line it counts, capitalised, when the line already
 * begins with a label (`Thought: ... Action: x Action Input: y`) or pairs "Action:" with a later
 * "Action Input:" (`Sure. Action: x Action Input: y`), so that prose saying "action:" is left alone.
 *
 * The colon may be the full-width "：" that models writing Chinese or Japanese put after a label.
 *
 * Linear time: lines are walked once, and the only regular expressions are anchored per line
 * or have bounded repetitions, so no input makes them backtrack over a long run.
 */
type Label = "thought" | "action" | "input" | "observation" | "final" | "ai";

export interface Segment {
  label: Label;
  /** Where the label (or the markdown before it) begins. */
  start: number;
  /** Where its value begins, after the colon. */
  valueStart: number;
  /** Where the next segment begins, or the end of the text. */
  end: number;
}

const LEADING_WORD = /(final[ _-]?answer|action[ _-]?input|action|thoughts?|observations?|ai)(?![a-z])/iy;
const INLINE_LABEL = /(?<=[\s*])(Thought|Action[ _]?[Ii]nput|Action|Observation|Final[ _]?[Aa]nswer)\*{0,2}[ \t]{0,3}\d{0,2}\*{0,2}[ \t]{0,3}[:：]/g;

export function findSegments(text: string): Segment[] {
  const found: Omit<Segment, "end">[] = [];
  let lineStart = 0;
  // a label needs a colon: lines without one are not searched; each next colon only moves forward
  const colons = [new NextColon(text, ":"), new NextColon(text, "：")];
  while (lineStart <= text.length) {
    let lineEnd = text.indexOf("\n", lineStart);
    if (lineEnd === -1) lineEnd = text.length;
    const leading = leadingLabel(text, lineStart, lineEnd);
    if (leading) found.push(leading);
    const rest = leading ? leading.valueStart : lineStart;
    if (colons.some((colon) => colon.before(rest, lineEnd))) found.push(...inlineLabels(text, rest, lineEnd, leading?.label));
    lineStart = lineEnd + 1;
  }
  return found.map((segment, index) => ({ ...segment, end: found[index + 1]?.start ?? text.length }));
}

/** A label at the start of the line, after white space and markdown. */
function leadingLabel(text: string, lineStart: number, lineEnd: number): Omit<Segment, "end"> | undefined {
  let i = lineStart;
  let emphasis = 0;
  while (i < lineEnd && " \t\r#>-+*_".includes(text[i]!)) {
    if (text[i] === "*" || text[i] === "_") emphasis++;
    i++;
  }
  LEADING_WORD.lastIndex = i;
  const word = LEADING_WORD.exec(text);
  if (!word || word.index + word[0].length > lineEnd) return undefined;
  i += word[0].length;
  i = skip(text, i, lineEnd, " \t*_");
  while (i < lineEnd && text[i]! >= "0" && text[i]! <= "9") i++; // "Action 2:"
  i = skip(text, i, lineEnd, " \t*_");
  if (text[i] !== ":" && text[i] !== "：") return undefined;
  i++;
  // `**Action:** x`: the emphasis that closes after the colon is markdown, not the value
  for (let closed = 0; closed < emphasis && (text[i] === "*" || text[i] === "_"); closed++) i++;
  return { label: labelOf(word[1]!), start: lineStart, valueStart: i };
}

/**
 * Labels inside a line, after the line's own label if it has one. In prose, and in an answer
 * ("Final Answer: take Action: call your bank"), "Action:" counts only when "Action Input:"
 * follows it on the line; in prose nothing before that pair counts.
 */
function inlineLabels(text: string, from: number, lineEnd: number, leading: Label | undefined): Omit<Segment, "end">[] {
  const line = text.slice(from, lineEnd);
  const labels: Omit<Segment, "end">[] = [];
  for (const match of line.matchAll(INLINE_LABEL)) {
    labels.push({ label: labelOf(match[1]!), start: from + match.index, valueStart: from + match.index + match[0].length });
  }
  const lastInput = labels.findLastIndex((label) => label.label === "input");
  const paired = (label: Omit<Segment, "end">, index: number) => label.label !== "action" || index < lastInput;
  if (leading === undefined) {
    const action = labels.findIndex((label, index) => label.label === "action" && paired(label, index));
    return action === -1 ? [] : labels.slice(action);
  }
  return leading === "final" || leading === "ai" ? labels.filter(paired) : labels;
}

/** The next place of one colon character, searched for only when the lines passed it. */
class NextColon {
  private at: number;
  constructor(
    private readonly text: string,
    private readonly colon: string,
  ) {
    this.at = text.indexOf(colon);
  }

  /** Whether the colon occurs in [from, end). */
  before(from: number, end: number): boolean {
    if (this.at !== -1 && this.at < from) this.at = this.text.indexOf(this.colon, from);
    return this.at !== -1 && this.at < end;
  }
}

function labelOf(word: string): Label {
  const key = word.toLowerCase().replace(/[ _-]/g, "");
  if (key === "finalanswer") return "final";
  if (key === "actioninput") return "input";
  if (key === "action") return "action";
  if (key === "ai") return "ai";
  return key.startsWith("thought") ? "thought" : "observation";
}

function skip(text: string, from: number, end: number, chars: string): number {
  let i = from;
  while (i < end && chars.includes(text[i]!)) i++;
  return i;
}

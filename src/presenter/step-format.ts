import { displayToolName } from "../text.js";
import type { StreamTask } from "../contract/surface.js";
import type { StepEvent } from "../contract/turn-view.js";

/** Caps that keep every step message well under the smallest platform limit (Discord's 2,000). */
const MAX_ARGS_CHARS = 400;
const MAX_OUTPUT_CHARS = 1_200;

type Started = Extract<StepEvent, { type: "tool_started" }>;
type Ended = Exclude<StepEvent, Started>;

/** A step while its tool runs, in Markdown: the tool and its arguments. */
export function formatStepStarted(event: Started): string {
  return `🔧 ${inlineCode(displayToolName(event.tool))} ${inlineCode(argsText(event.args))} …`;
}

/** The same step once the tool is done: arguments, then the result or the error. */
export function formatStepEnded(event: Ended): string {
  const head = `${inlineCode(displayToolName(event.tool))} ${inlineCode(argsText(event.args))}`;
  if (event.type === "tool_failed") return `⚠️ ${head} failed: ${inlineCode(truncate(oneLine(event.error), MAX_OUTPUT_CHARS))}`;
  const output = truncate(event.output, MAX_OUTPUT_CHARS);
  const rendered = output.includes("\n") ? `\n${codeBlock(output)}` : ` → ${inlineCode(output)}`;
  return `✅ ${head}${rendered} _(${event.durationMs} ms)_`;
}

/** Where no step can be posted (a confined answer): each ended step as one short line of a list above the answer. */
export function formatStepLine(event: Ended): string {
  const head = `${inlineCode(displayToolName(event.tool))} ${inlineCode(truncate(argsText(event.args), 80))}`;
  if (event.type === "tool_failed") return `- ⚠️ ${head} failed: ${inlineCode(truncate(oneLine(event.error), 120))}`;
  return `- ✅ ${head} → ${inlineCode(truncate(oneLine(event.output), 120))}`;
}

/** Arguments on one line, cut to a few hundred characters. */
export function argsText(args: unknown): string {
  const text = typeof args === "string" ? args : (safeJson(args) ?? "");
  return truncate(oneLine(text), MAX_ARGS_CHARS);
}

function safeJson(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Inline code that survives backticks in the text (Markdown's longer-fence rule). */
export function inlineCode(text: string): string {
  if (text === "") return "` `";
  if (!text.includes("`")) return `\`${text}\``;
  return `\`\` ${text.replace(/``+/g, (ticks) => ticks.split("").join("\u200b"))} \`\``;
}

function codeBlock(text: string): string {
  return `\`\`\`\n${text.replace(/```/g, "`\u200b``")}\n\`\`\``;
}

/** A native stream's task shows at most this much of a step's result. */
const MAX_TASK_OUTPUT_CHARS = 200;

/** A step as a task card in a native stream (Slack): the tool and its arguments, then a short result or error. */
export function stepTask(event: StepEvent): StreamTask {
  const title = truncate(`${displayToolName(event.tool)} ${argsText(event.args)}`, 120);
  const id = `step-${event.seq}`;
  if (event.type === "tool_started") return { id, title, status: "in_progress" };
  if (event.type === "tool_failed") return { id, title, status: "error", output: truncate(oneLine(event.error), MAX_TASK_OUTPUT_CHARS) };
  return { id, title, status: "complete", output: truncate(oneLine(event.output), MAX_TASK_OUTPUT_CHARS) };
}

import type { StepEvent } from "../../runner/types.js";

const MAX_ARGS_CHARS = 400;
const MAX_OUTPUT_CHARS = 1_200;

/** The step message while the tool runs. Always well under Discord's 2,000 characters. */
export function formatStepStarted(event: Extract<StepEvent, { type: "tool_started" }>): string {
  return `🔧 \`${event.tool}\` ${inlineCode(argsText(event.args))} …`;
}

/** The same message once the tool is done: arguments, then the result or the error. */
export function formatStepEnded(event: Exclude<StepEvent, { type: "tool_started" }>): string {
  const head = `\`${event.tool}\` ${inlineCode(argsText(event.args))}`;
  if (event.type === "tool_failed") return `⚠️ ${head} failed: ${inlineCode(truncate(oneLine(event.error), MAX_OUTPUT_CHARS))}`;
  const output = truncate(event.output, MAX_OUTPUT_CHARS);
  const rendered = output.includes("\n") ? `\n${codeBlock(output)}` : ` → ${inlineCode(output)}`;
  return `✅ ${head}${rendered} _(${event.durationMs} ms)_`;
}

function argsText(args: unknown): string {
  const text = typeof args === "string" ? args : (JSON.stringify(args) ?? "");
  return truncate(oneLine(text), MAX_ARGS_CHARS);
}

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Inline code that survives backticks in the text (Markdown's longer-fence rule). */
function inlineCode(text: string): string {
  if (text === "") return "` `";
  if (!text.includes("`")) return `\`${text}\``;
  return `\`\` ${text} \`\``;
}

function codeBlock(text: string): string {
  return `\`\`\`\n${text.replace(/```/g, "`\u200b``")}\n\`\`\``;
}

import type { StepEvent } from "../../runner/types.js";
import { defuseMassMentions, escapeText } from "./mrkdwn.js";

const MAX_ARGS_CHARS = 300;
const MAX_INLINE_OUTPUT_CHARS = 200;
const MAX_OUTPUT_CHARS = 1500;

type Started = Extract<StepEvent, { type: "tool_started" }>;
type Ended = Exclude<StepEvent, Started>;

/** A tool step as a thread reply, posted when the tool starts: tool and arguments. */
export function formatStarted(event: Started): string {
  return `:gear: Running ${call(event.tool, event.args)} …`;
}

/** The same reply once the tool ended: tool, arguments, then result or error. */
export function formatEnded(event: Ended): string {
  const what = call(event.tool, event.args);
  const took = `_(${event.durationMs} ms)_`;
  return event.type === "tool_finished"
    ? `:white_check_mark: ${what} → ${outputText(event.output)} ${took}`
    : `:warning: ${what} failed: ${outputText(event.error)} ${took}`;
}

function call(tool: string, args: unknown): string {
  return `\`${tool}\` with ${inlineCode(JSON.stringify(args) ?? "{}")}`;
}

function outputText(text: string): string {
  if (!text.includes("\n") && text.length <= MAX_INLINE_OUTPUT_CHARS) return inlineCode(text);
  const shown = text.length > MAX_OUTPUT_CHARS ? `${text.slice(0, MAX_OUTPUT_CHARS)}\n… (${text.length - MAX_OUTPUT_CHARS} more characters)` : text;
  return `\n\`\`\`\n${safe(shown).replace(/```/g, "ˋˋˋ")}\n\`\`\``;
}

function inlineCode(text: string): string {
  const shown = text.length > MAX_ARGS_CHARS ? `${text.slice(0, MAX_ARGS_CHARS)}…` : text;
  return `\`${safe(shown).replace(/`/g, "ˋ").replace(/\n/g, " ")}\``;
}

/** Tool output is untrusted text (web pages, files): escaped, and broadcasts defused. */
function safe(text: string): string {
  return defuseMassMentions(escapeText(text));
}

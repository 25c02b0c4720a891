/** The longest tool name shown or used as a label, as the OpenAI API allows for real tools. */
export const MAX_DISPLAYED_TOOL_NAME = 64;

/** Control and format characters (NUL, newlines, zero-width, bidirectional overrides). */
const INVISIBLE = /[\p{Cc}\p{Cf}]/gu;

/**
 * A tool name fit to show or to use as a metrics label. Real tools have short, plain names
 * (TOOL_NAME), but a model may call any string: a 3,000-character name, newlines, or text that
 * reorders the line around it. Idempotent, so a name shortened here may pass through it again.
 * Platforms still escape it for their markup.
 */
export function displayToolName(name: string): string {
  const visible = name.replace(INVISIBLE, "").trim();
  if (visible === "") return "(unnamed)";
  const characters = [...visible];
  if (characters.length <= MAX_DISPLAYED_TOOL_NAME) return visible;
  return `${characters.slice(0, MAX_DISPLAYED_TOOL_NAME - 1).join("")}…`;
}

/**
 * Text from outside (a model, a tool, a user) made fit to show, store or label: one place for
 * what "shows nothing", how a name is shown, and how a long text is cut.
 */

/** The longest tool name shown or used as a label, as the OpenAI API allows for real tools. */
const MAX_DISPLAYED_TOOL_NAME = 64;

/** Control and format characters (NUL, newlines, zero-width, bidirectional overrides). */
const CONTROL_OR_FORMAT = /[\p{Cc}\p{Cf}]/gu;

/**
 * Characters that show nothing on their own: controls, format characters (zero-width space and
 * joiners, word joiner, byte order mark, bidirectional marks), white space, and the blank letters
 * chat apps render as nothing.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\s\u115F\u1160\u2800\u3164\uFFA0]/gu;

/**
 * A tool name fit to show or to use as a metrics label. Real tools have short, plain names, but a
 * model may call any string: a 3,000-character name, newlines, or text that reorders the line
 * around it. Idempotent. Platforms still escape it for their markup.
 */
export function displayToolName(name: string): string {
  const visible = name.replace(CONTROL_OR_FORMAT, "").trim();
  if (visible === "") return "(unnamed)";
  const characters = [...visible];
  if (characters.length <= MAX_DISPLAYED_TOOL_NAME) return visible;
  return `${characters.slice(0, MAX_DISPLAYED_TOOL_NAME - 1).join("")}…`;
}

/** Whether a text would show anything: one of only invisible characters counts as empty. */
export function hasVisibleText(text: string): boolean {
  return text.replace(INVISIBLE, "") !== "";
}

/**
 * Text as it is posted: trimmed and without NUL bytes, which some platforms refuse and terminals
 * and logs mangle. Other invisible characters stay, since joiners build emoji and scripts.
 */
export function cleanAnswer(text: string): string {
  return text.replaceAll("\u0000", "").trim();
}

/**
 * Text of any size cut to `max` characters, with a marker that says how long it was, so that
 * whoever reads it (a model, an admin in the audit, a chat) knows it is not whole.
 */
export function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… [shortened: ${text.length} characters]`;
}

/** The longest tool name shown anywhere: model-invented names can be any length. */
const MAX_NAME_CHARS = 64;

/** Invisible and control characters: a name or answer made only of them shows as nothing. */
const INVISIBLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u200b-\u200f\u2028-\u202e\u2060-\u2064\ufeff]/g;

/** A name the model chose (a tool's), safe to show: one line, no control characters, at most 64 characters. */
export function displayName(name: string): string {
  const clean = name.replace(INVISIBLE, "").replace(/\s+/g, " ").trim() || "(unnamed)";
  return clean.length <= MAX_NAME_CHARS ? clean : `${clean.slice(0, MAX_NAME_CHARS - 1)}…`;
}

/** True when the text shows nothing: empty, blank, or only invisible characters. */
export function isBlank(text: string): boolean {
  return text.replace(INVISIBLE, "").trim() === "";
}

/** NUL bytes and other controls never reach a platform (Discord and Slack refuse or drop them). */
export function withoutControls(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, "");
}

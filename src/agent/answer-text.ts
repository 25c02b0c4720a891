/**
 * Characters that show nothing on their own: controls (NUL and the other C0 and C1 codes),
 * format characters (zero-width space and joiners, word joiner, byte order mark, bidirectional
 * marks), white space, and the blank letters chat apps render as nothing.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\s\u115F\u1160\u2800\u3164\uFFA0]/gu;

/** Whether a model's answer would show anything: an answer of only invisible characters counts as empty. */
export function hasVisibleText(text: string): boolean {
  return text.replace(INVISIBLE, "") !== "";
}

/**
 * The answer as it is posted: trimmed and without NUL bytes, which some platforms refuse and
 * terminals and logs mangle. Other invisible characters stay, since joiners build emoji and scripts.
 */
export function cleanAnswer(text: string): string {
  return text.replaceAll("\u0000", "").trim();
}

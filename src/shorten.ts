/**
 * Text of any size cut to `max` characters, with a marker that says how long it was, so that
 * whoever reads it (a model, an admin in the audit, a chat) knows it is not whole.
 */
export function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… [shortened: ${text.length} characters]`;
}

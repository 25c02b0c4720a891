import type { StoredMessage } from "./types.js";

/** Rough token count (about four characters a token): enough to keep one huge message from filling the context. */
const estimateTokens = (text: string): number => Math.ceil(text.length / 4);

/**
 * The window from its rows, newest first as (answer, question) pairs: whole pairs while they fit
 * `tokenBudget`, older ones go first; an exchange that alone exceeds the budget is shortened.
 * Returned oldest first.
 */
export function trimWindow(newestFirst: StoredMessage[], tokenBudget: number): StoredMessage[] {
  const kept: StoredMessage[] = [];
  let used = 0;
  for (let i = 0; i + 1 < newestFirst.length; i += 2) {
    const pair = [newestFirst[i]!, newestFirst[i + 1]!];
    const cost = estimateTokens(pair[0]!.text) + estimateTokens(pair[1]!.text);
    if (used + cost > tokenBudget) {
      if (kept.length === 0) {
        const share = Math.floor((tokenBudget * 4) / 2);
        kept.push(...pair.map((m) => ({ ...m, text: shorten(m.text, share) })));
      }
      break;
    }
    kept.push(...pair);
    used += cost;
  }
  return kept.reverse();
}

function shorten(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  return `${text.slice(0, Math.max(0, maxChars - 1))}…`;
}

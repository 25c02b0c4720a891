import type { IdentifierKind } from "../../store/summary-store.js";

/** An identifier as written in a message. */
export interface FoundIdentifier {
  text: string;
  kind: IdentifierKind;
}

const MONTH = "(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)";
const UNIT =
  "(?:%|ms|s|sec|secs|seconds?|min|mins|minutes?|h|hrs?|hours?|days?|weeks?|months?|years?|[KMGT]i?B|[kKMGT]?bps|kg|g|mg|lbs?|km|m|cm|mm|mi|ft|px|pt|[kKMG]Hz|°C|°F|€|USD|EUR|GBP|tokens?|req/s|rps|x)";

/**
 * The patterns, in order of precedence: a later match that overlaps an earlier one is left out
 * (a file name inside a URL or a code span is not indexed twice).
 */
const PATTERNS: readonly { kind: IdentifierKind; pattern: RegExp; needs?: RegExp }[] = [
  { kind: "code", pattern: /`([^`\n]{1,200})`/g, needs: /`/ },
  { kind: "url", pattern: /\bhttps?:\/\/[^\s<>"'`]+[^\s<>"'`.,;:!?)\]}]/g, needs: /http/ },
  { kind: "mention", pattern: /<@!?\d+>|(?<![\w.])@[A-Za-z0-9_][\w.-]{0,60}\w/g, needs: /@/ },
  {
    kind: "date",
    needs: /\d/,
    pattern: new RegExp(
      `\\b\\d{4}-\\d{2}-\\d{2}(?:[T ]\\d{2}:\\d{2}(?::\\d{2})?Z?)?\\b|\\b\\d{1,2}/\\d{1,2}/\\d{2,4}\\b|\\b${MONTH} \\d{1,2}(?:st|nd|rd|th)?(?:,? \\d{4})?\\b|\\b\\d{1,2} ${MONTH}(?: \\d{4})?\\b`,
      "g",
    ),
  },
  {
    kind: "id",
    pattern:
      /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b|\b[A-Z][A-Z0-9]{1,9}-\d{1,7}\b|(?<![\w&])#\d{1,7}\b|\bv\d+\.\d+(?:\.\d+)?(?:-[\w.]+)?\b|\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b/g,
  },
  {
    kind: "file",
    needs: /\./,
    pattern:
      /(?<![\w/.-])(?:[\w-]+\/)*[\w-]+\.(?:ts|tsx|js|jsx|mjs|cjs|json|md|py|rb|go|rs|java|kt|c|h|cpp|cs|sql|ya?ml|toml|ini|env|txt|csv|tsv|log|pdf|png|jpe?g|gif|svg|docx?|xlsx?|pptx?|zip|tar|gz|sh|html|css|lock)\b/g,
  },
  {
    kind: "quantity",
    needs: /\d/,
    pattern: new RegExp(`(?:[$€£]\\s?\\d+(?:,\\d{3})*(?:\\.\\d+)?(?:\\s?[kKmMbB]n?\\b)?)|\\b\\d+(?:,\\d{3})*(?:\\.\\d+)?\\s?${UNIT}(?![\\w])`, "g"),
  },
];

/** The identifiers of one message, in the order they appear, each once: found by code, never by the model. */
export function findIdentifiers(text: string): FoundIdentifier[] {
  const taken: { start: number; end: number; found: FoundIdentifier }[] = [];
  for (const { kind, pattern, needs } of PATTERNS) {
    // A character every match has: most messages have no URL, code or mention to look for.
    if (needs && !needs.test(text)) continue;
    // exec, not matchAll: matchAll copies the expression for every message.
    pattern.lastIndex = 0;
    for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
      if (match[0].length === 0) {
        pattern.lastIndex++;
        continue;
      }
      const start = match.index;
      const end = start + match[0].length;
      if (taken.some((span) => start < span.end && span.start < end)) continue;
      taken.push({ start, end, found: { kind, text: match[0].trim() } });
    }
  }
  const seen = new Set<string>();
  return taken
    .sort((a, b) => a.start - b.start)
    .map((span) => span.found)
    .filter((found) => !seen.has(found.text) && seen.add(found.text) !== undefined);
}

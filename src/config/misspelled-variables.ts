import { knownVariables, LOWER_CASE_VARIABLES } from "./env.js";
import { processEnvironment } from "./environment.js";

/**
 * Variables read by the SDKs the bot uses, not by its schema: set on purpose, never a misspelling.
 * (The openai client reads these from the environment itself.)
 */
const READ_BY_SDKS = new Set(["OPENAI_ORG_ID", "OPENAI_PROJECT_ID", "OPENAI_WEBHOOK_SECRET", "OPENAI_LOG"]);

/**
 * One warning per variable that looks like a misspelling of one of the bot's (OPENAI_MODLE for
 * OPENAI_MODEL), which the bot would otherwise ignore without a word. Only names that start like
 * the bot's (OPENAI_, SLACK_, DISCORD_, ...) are compared, and only a close match counts, so the
 * rest of a shell's environment (PATH, NODE_OPTIONS, GITHUB_TOKEN, ...) makes no noise.
 */
export function misspelledVariables(env: NodeJS.ProcessEnv = processEnvironment(), known: readonly string[] = knownVariables()): string[] {
  const names = new Set(known);
  const prefixes = new Set(known.flatMap((name) => (name.includes("_") ? [name.slice(0, name.indexOf("_") + 1)] : [])));
  const warnings: string[] = [];
  for (const name of Object.keys(env).sort()) {
    const upper = name.toUpperCase();
    const lowerCaseSpelling = name === name.toLowerCase() && LOWER_CASE_VARIABLES.has(upper);
    if (names.has(name) || lowerCaseSpelling || READ_BY_SDKS.has(upper) || ![...prefixes].some((prefix) => upper.startsWith(prefix))) continue;
    const meant = closest(upper, known);
    if (meant) warnings.push(`${name} is not a variable of the bot and is ignored; did you mean ${meant}?`);
  }
  return warnings;
}

/**
 * The known name nearest to `name`, if it is near enough to be a slip of the keyboard: two edits at
 * most, and fewer for short names; or the name with the unit it left out (TURN_TIMEOUT for TURN_TIMEOUT_MS).
 */
function closest(name: string, known: readonly string[]): string | undefined {
  if (known.includes(`${name}_MS`)) return `${name}_MS`;
  let best: { name: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(name, candidate);
    if (distance <= Math.min(2, Math.floor(candidate.length / 4)) && (!best || distance < best.distance)) best = { name: candidate, distance };
  }
  return best?.name;
}

/** Edits (insert, delete, replace, swap two neighbours) that turn `a` into `b`: "MODLE" is one swap from "MODEL". */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let distance = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) distance = Math.min(distance, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = distance;
    }
  }
  return rows[a.length]![b.length]!;
}

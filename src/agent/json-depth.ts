/**
 * How deep JSON from a model may nest. JSON.parse reads any depth (V8's parser does not
 * recurse), but JSON.stringify, jsonrepair and any code that walks a value recursively
 * overflow the stack at a few thousand levels: 10 kB of brackets. No tool's arguments need more
 * than a few levels, so whatever nests deeper is refused where it enters, with this figure.
 */
export const MAX_JSON_DEPTH = 64;

/** The problem as a parser words it for the model. */
export const TOO_DEEP = `it is nested too deeply (more than ${MAX_JSON_DEPTH} levels)`;

/** Whether a value nests objects or arrays deeper than `max`; walks without recursion and stops at the first too deep. */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  if (typeof value !== "object" || value === null) return false;
  const pending: [object, number][] = [[value, 1]];
  while (pending.length > 0) {
    const [current, depth] = pending.pop()!;
    if (depth > max) return true;
    for (const child of Object.values(current)) {
      if (typeof child === "object" && child !== null) pending.push([child, depth + 1]);
    }
  }
  return false;
}

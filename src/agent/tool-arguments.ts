import { readModelJson, unwrapJsonString } from "./tolerant-json.js";

export type ArgumentsRead = { ok: true; args: unknown; repairs: string[] } | { ok: false; problem: string };

/**
 * Reads the `arguments` text of a native tool call. Small models send it fenced in ```json,
 * single-quoted, with trailing commas, double-encoded as a JSON string, or cut short. It is
 * repaired when the repair is unambiguous (the tool's schema then checks the result, as for any
 * call); a text that may have been cut inside a string or a number is not guessed at: the
 * problem, worded for the model, says what is wrong.
 */
export function readToolArguments(raw: string | undefined): ArgumentsRead {
  const text = raw?.trim() ?? "";
  if (text === "") return { ok: true, args: {}, repairs: [] };
  const read = readModelJson(text, "may-be-cut");
  if (!read.ok) return { ok: false, problem: read.problem };
  const { value, unwrapped } = unwrapJsonString(read.value);
  return { ok: true, args: value, repairs: unwrapped ? [...read.repairs, "decoded arguments sent as a JSON string"] : read.repairs };
}

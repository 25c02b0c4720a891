import type { ToolShape } from "../../../src/agent/react-tools.js";

/**
 * One reply a model without native tool calling wrote, and how it must be read. The corpus is
 * written for this project from the five kinds of misses in issue 14 and from public reports of
 * parsers failing on real model output (each case names its source or reason in a comment).
 * It is not tuned to any other corpus.
 */
export type Expected =
  | { kind: "action"; tool: string; input: unknown }
  | { kind: "final"; output: string }
  /** Not an answer: must go back to the model as a format error, never reach the user. */
  | { kind: "invalid" };

export interface CorpusCase {
  name: string;
  text: string;
  expect: Expected;
  /** The tools the turn offers, where the reading depends on them (a name's spelling, a one-string input). */
  tools?: readonly ToolShape[];
}

/** A tool that takes one string parameter. */
export const textTool = (name: string, parameter = "query"): ToolShape => ({
  name,
  jsonSchema: { type: "object", properties: { [parameter]: { type: "string" } }, required: [parameter] },
});

/** A tool that takes several numbers. */
export const numbersTool = (name: string, ...parameters: string[]): ToolShape => ({
  name,
  jsonSchema: { type: "object", properties: Object.fromEntries(parameters.map((p) => [p, { type: "number" }])), required: parameters },
});

export const CORPUS_KINDS = [
  "json_blob",
  "invented_tail",
  "mrkl_form",
  "not_an_answer",
  "final_first",
  "other_forms",
  "as_today",
] as const;

export type CorpusKind = (typeof CORPUS_KINDS)[number];

/** What each group holds, for the test names and the benchmark's labels. */
export const KIND_TITLES: Record<CorpusKind, string> = {
  json_blob: "1. JSON blobs with raw control characters, code blocks and hand-written JSON",
  invented_tail: "2. text the model invented after its action",
  mrkl_form: "3. the MRKL form on one line or spread over lines",
  not_an_answer: "4. outputs that are not answers and go back to the model",
  final_first: "5. a final answer first, then an action",
  other_forms: "other forms local models write (reasoning tags, function-call JSON)",
  as_today: "read as today: the forms the parser already read, and plain prose",
};

/** Code fences, so that the cases can be written as template strings. */
export const F = "```";

export const action = (tool: string, input: unknown): Expected => ({ kind: "action", tool, input });
export const final = (output: string): Expected => ({ kind: "final", output });
export const invalid: Expected = { kind: "invalid" };

import { isDeepStrictEqual } from "node:util";
import { asTodayCases } from "./as-today.js";
import { finalFirstCases } from "./final-first.js";
import { inventedTailCases } from "./invented-tail.js";
import { jsonBlobCases } from "./json-blob.js";
import { keylessBlobCases } from "./keyless-blobs.js";
import { mrklFormCases } from "./mrkl-form.js";
import { notAnAnswerCases } from "./not-an-answer.js";
import { otherFormCases } from "./other-forms.js";
import { plainStringCases } from "./plain-strings.js";
import { toolCallCases } from "./tool-calls.js";
import type { ToolShape } from "../../../src/agent/react-tools.js";
import { CORPUS_KINDS, type CorpusCase, type CorpusKind } from "./types.js";

export { CORPUS_KINDS, KIND_TITLES, type CorpusCase, type CorpusKind } from "./types.js";

export const corpus: Record<CorpusKind, CorpusCase[]> = {
  json_blob: [...jsonBlobCases, ...plainStringCases],
  invented_tail: inventedTailCases,
  mrkl_form: mrklFormCases,
  not_an_answer: [...notAnAnswerCases, ...keylessBlobCases],
  final_first: finalFirstCases,
  other_forms: [...otherFormCases, ...toolCallCases],
  as_today: asTodayCases,
};

/** A text-protocol parser: returns an action or a final answer, throws when the reply cannot be read. */
export type Parse = (text: string, tools?: readonly ToolShape[]) => unknown;

/** What the parser made of a case: its result, or "invalid" when it threw. */
export function outcome(parse: Parse, text: string, tools?: readonly ToolShape[]): unknown {
  try {
    return parse(text, tools);
  } catch {
    return { kind: "invalid" };
  }
}

function readsAsExpected(parse: Parse, { expect, text, tools }: CorpusCase): boolean {
  return isDeepStrictEqual(outcome(parse, text, tools), expect);
}

export interface KindScore {
  kind: CorpusKind;
  passed: number;
  total: number;
  missed: string[];
}

/** The share of each group the parser reads as expected. */
export function scoreCorpus(parse: Parse): KindScore[] {
  return CORPUS_KINDS.map((kind) => {
    const missed = corpus[kind].filter((c) => !readsAsExpected(parse, c)).map((c) => c.name);
    return { kind, passed: corpus[kind].length - missed.length, total: corpus[kind].length, missed };
  });
}

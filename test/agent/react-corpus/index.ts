import { isDeepStrictEqual } from "node:util";
import { asTodayCases } from "./as-today.js";
import { finalFirstCases } from "./final-first.js";
import { inventedTailCases } from "./invented-tail.js";
import { jsonBlobCases } from "./json-blob.js";
import { mrklFormCases } from "./mrkl-form.js";
import { notAnAnswerCases } from "./not-an-answer.js";
import { otherFormCases } from "./other-forms.js";
import { CORPUS_KINDS, type CorpusCase, type CorpusKind, type Expected } from "./types.js";

export { CORPUS_KINDS, KIND_TITLES, type CorpusCase, type CorpusKind } from "./types.js";

export const corpus: Record<CorpusKind, CorpusCase[]> = {
  json_blob: jsonBlobCases,
  invented_tail: inventedTailCases,
  mrkl_form: mrklFormCases,
  not_an_answer: notAnAnswerCases,
  final_first: finalFirstCases,
  other_forms: otherFormCases,
  as_today: asTodayCases,
};

/** A text-protocol parser: returns an action or a final answer, throws when the reply cannot be read. */
export type Parse = (text: string) => unknown;

/** What the parser made of a case: its result, or "invalid" when it threw. */
export function outcome(parse: Parse, text: string): unknown {
  try {
    return parse(text);
  } catch {
    return { kind: "invalid" };
  }
}

function readsAsExpected(parse: Parse, expected: Expected, text: string): boolean {
  return isDeepStrictEqual(outcome(parse, text), expected);
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
    const missed = corpus[kind].filter((c) => !readsAsExpected(parse, c.expect, c.text)).map((c) => c.name);
    return { kind, passed: corpus[kind].length - missed.length, total: corpus[kind].length, missed };
  });
}

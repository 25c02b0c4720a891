import { describe, expect, it } from "vitest";
import { parseAgentOutput } from "../../src/agent/react-parser.js";
import { corpus, CORPUS_KINDS, KIND_TITLES, outcome } from "./react-corpus/index.js";

/** Scaffolding a user must never see at the start of a line of an answer. */
const SCAFFOLDING = /^[ \t*#>-]*(?:Thought|Action|Action[ _]?Input|Observation|Final[ _]?Answer)[ \t*]*:/im;

describe("the text-protocol corpus", () => {
  it("holds at least 100 cases", () => {
    expect(Object.values(corpus).flat().length).toBeGreaterThanOrEqual(100);
  });

  describe.each(CORPUS_KINDS)("%s", (kind) => {
    it.each(corpus[kind])(`${KIND_TITLES[kind]}: $name`, ({ text, expect: expected, tools }) => {
      const read = outcome(parseAgentOutput, text, tools) as { kind: string; output?: string };
      expect(read).toEqual(expected);
      if (read.kind === "final") {
        expect(read.output).not.toMatch(SCAFFOLDING);
        expect(read.output!.trim()).not.toMatch(/^(?:""|'')?$/);
      }
    });
  });
});

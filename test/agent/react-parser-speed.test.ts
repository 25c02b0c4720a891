import { describe, expect, it } from "vitest";
import { MAX_READ_CHARS, parseAgentOutput } from "../../src/agent/react-parser.js";
import { PATHOLOGICAL } from "./react-corpus/pathological.js";

describe("the text-protocol parser on pathological replies", () => {
  // Each takes a few milliseconds; the bound is generous so that a busy machine cannot make it flake.
  it.each(Object.entries(PATHOLOGICAL))("%s: answers in well under a second", (_name, text) => {
    const started = performance.now();
    try {
      parseAgentOutput(text);
    } catch (error) {
      expect((error as Error).name).toBe("OutputParseError");
    }
    expect(performance.now() - started).toBeLessThan(500);
  });

  it(`reads only the first ${MAX_READ_CHARS} characters`, () => {
    const text = `Final Answer: ${"a".repeat(MAX_READ_CHARS)}\nAction: calculator\nAction Input: 2+2`;
    const read = parseAgentOutput(text);
    expect(read).toEqual({ kind: "final", output: "a".repeat(MAX_READ_CHARS - "Final Answer: ".length) });
  });
});

import { describe, expect, it } from "vitest";
import { readToolArguments } from "../../src/agent/tool-arguments.js";

describe("reading a native tool call's arguments", () => {
  it.each([
    ["a ```json fence", '```json\n{"radius": 7.81}\n```', { radius: 7.81 }, ["removed a markdown code fence"]],
    ["single quotes", "{'expression': '2 + 2'}", { expression: "2 + 2" }, ["single quotes"]],
    ["a trailing comma", '{"amount": 10, "from": "EUR", "to": "USD",}', { amount: 10, from: "EUR", to: "USD" }, ["trailing comma"]],
    ["a missing closing brace after a string", '{"query": "Alan Turing"', { query: "Alan Turing" }, ["closed 1 bracket left open"]],
    ["arguments sent as a JSON string", '"{\\"radius\\": 2}"', { radius: 2 }, ["decoded arguments sent as a JSON string"]],
    ["Python literals", '{"timezone": None}', { timezone: null }, ["fixed JSON syntax"]],
    [
      "fence, single quotes and a trailing comma together",
      "```json\n{'radius': 3,}\n```",
      { radius: 3 },
      ["removed a markdown code fence", "single quotes", "trailing comma"],
    ],
  ])("repairs %s and names the repair", (_name, raw, args, repairs) => {
    expect(readToolArguments(raw)).toEqual({ ok: true, args, repairs });
  });

  it("takes valid JSON and empty arguments as they are, with no repair", () => {
    expect(readToolArguments('{"radius": 7.81}')).toEqual({ ok: true, args: { radius: 7.81 }, repairs: [] });
    expect(readToolArguments("")).toEqual({ ok: true, args: {}, repairs: [] });
    expect(readToolArguments("7.81")).toEqual({ ok: true, args: 7.81, repairs: [] });
  });

  it.each([
    ["cut on a number (7.8 may have been 7.85)", '{"radius": 7.8', "it stops on a number, as if cut short; send the whole JSON again"],
    ["cut inside a string", '{"query": "Alan Tur', "it stops inside a string, as if cut short; send the whole JSON again"],
    ["cut before a value", '{"radius":', 'it stops after ":", before its value, as if cut short; send the whole JSON again'],
    ["cut after a comma", '{"amount": 10,', 'it stops after ",", before its value, as if cut short; send the whole JSON again'],
  ])("does not guess when the arguments were %s", (_name, raw, problem) => {
    expect(readToolArguments(raw)).toEqual({ ok: false, problem });
  });

  it("reports text that is not JSON with the parser's own message", () => {
    const read = readToolArguments("radius=7");
    expect(read.ok).toBe(false);
    expect(!read.ok && read.problem).toMatch(/JSON/);
  });
});

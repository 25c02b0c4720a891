import { describe, expect, it } from "vitest";
import { calculate, calculatorTool, MAX_EXPRESSION_LENGTH } from "../../src/tools/builtin/calculator.js";

describe("the calculator tool", () => {
  it.each([
    ["2 + 2", "4"],
    ["(3.5 + 4) * 2^3", "60"],
    ["0.1 + 0.2", "0.3"],
    ["sqrt(2) * 10", "14.142135623731"],
    ["sin(30 deg)", "0.5"],
    ["5 km to m", "5000 m"],
  ])("evaluates %s to %s", (expression, expected) => {
    expect(calculate(expression)).toBe(expected);
  });

  it.each([
    'import({ evil: 1 }, { override: true })',
    'createUnit("parsec2", "3.26 lightyear")',
    'evaluate("1 + 1")',
    'parse("1 + 1")',
    'simplify("x + x")',
    'derivative("x^2", "x")',
    "1:1e9",
    "zeros(100000, 100000)",
  ])("refuses %s with a clear reason", (expression) => {
    expect(() => calculate(expression)).toThrow(/not available in this calculator/);
  });

  it("refuses an expression over the size limit and says why", () => {
    expect(() => calculate("1+".repeat(MAX_EXPRESSION_LENGTH) + "1")).toThrow(/too long/);
  });

  it("explains an expression it cannot evaluate", () => {
    expect(() => calculate("2 +* 3")).toThrow(/could not evaluate "2 \+\* 3"/);
    expect(() => calculate("unknownThing * 2")).toThrow(/Undefined symbol unknownThing/);
  });

  it("offers the model an expression argument and rejects a missing one", () => {
    expect(calculatorTool.jsonSchema).toMatchObject({ required: ["expression"] });
    expect(calculatorTool.parseArgs({}).ok).toBe(false);
    expect(calculatorTool.parseArgs("2*3")).toEqual({ ok: true, value: { expression: "2*3" } });
  });
});

import { afterAll, describe, expect, it } from "vitest";
import { calculatorTool, MAX_EXPRESSION_LENGTH } from "../../src/tools/builtin/calculator.js";
import { calculate } from "../../src/tools/builtin/calculator-engine.js";
import { closeCpuPool } from "../../src/tools/cpu/cpu-pool.js";
import { callTool } from "../support/call-tool.js";

describe("the calculator's engine", () => {
  it.each([
    ["2 + 2", "4"],
    ["(3.5 + 4) * 2^3", "60"],
    ["0.1 + 0.2", "0.3"],
    ["sqrt(2) * 10", "14.142135623731"],
    ["sin(30 deg)", "0.5"],
    ["5 km to m", "5000 m"],
    ["det([[1, 2], [3, 4]])", "-2"],
    ["format(pi, 5)", '"3.1416"'],
  ])("evaluates %s to %s", (expression, expected) => {
    expect(calculate(expression)).toBe(expected);
  });

  it.each([
    "import({ evil: 1 }, { override: true })",
    'createUnit("parsec2", "3.26 lightyear")',
    'evaluate("1 + 1")',
    'parse("1 + 1")',
    'simplify("x + x")',
    'derivative("x^2", "x")',
    "config({ precision: 100000 })",
    "1:1e9",
    "zeros(100000, 100000)",
    "size(resize([1], [30000, 30000]))",
    "size(kron([1, 2], [3, 4]))",
    "reshape([1, 2], [2, 1])",
    "concat([1], [2])",
    "diag([1, 2])",
    "sparse([[1]])",
    "subset([1], index(3000, 3000), 1)",
    "setPowerset([1, 2, 3])",
    "setCartesian([1], [2])",
    "f(i) = 1; matrixFromFunction([2, 2], f)",
    "fft([1, 2])",
  ])("refuses %s with a clear reason", (expression) => {
    expect(() => calculate(expression)).toThrow(/not available in this calculator/);
  });

  it("refuses a format precision that would build a huge string", () => {
    expect(() => calculate("format(pi, 100000)")).toThrow(/at most 64 significant digits/);
    expect(() => calculate("format(bignumber(1) / 3, { precision: 1e9 })")).toThrow(/at most 64 significant digits/);
  });

  it("refuses a matrix result too large to show, and shortens a long one", () => {
    expect(() => calculate("A = [1]; A[100, 100] = 1; A")).toThrow(/100×100 values, too many to show/);
    const long = calculate('format(bignumber("1e5000"), { notation: "fixed" })');
    expect(long).toMatch(/^"10{1998}… \[shortened: 5003 characters\]$/);
  });

  it("refuses an expression over the size limit and says why", () => {
    expect(() => calculate("1+".repeat(MAX_EXPRESSION_LENGTH) + "1")).toThrow(/too long/);
  });

  it("explains an expression it cannot evaluate", () => {
    expect(() => calculate("2 +* 3")).toThrow(/could not evaluate "2 \+\* 3"/);
    expect(() => calculate("unknownThing * 2")).toThrow(/Undefined symbol unknownThing/);
  });
});

describe("the calculator tool", () => {
  afterAll(() => closeCpuPool());

  it("answers through its worker thread, as the engine does", async () => {
    expect(await callTool(calculatorTool, { expression: "(3.5 + 4) * 2^3" })).toMatchObject({ ok: true, observation: "60" });
    expect(await callTool(calculatorTool, { expression: "5 km to m" })).toMatchObject({ ok: true, observation: "5000 m" });
  });

  it("passes the engine's reason on to the model", async () => {
    const result = await callTool(calculatorTool, { expression: "size(resize([1], [30000, 30000]))" });
    expect(result.observation).toBe(
      'Error: calculator failed: could not evaluate "size(resize([1], [30000, 30000]))": the function "resize" is not available in this calculator',
    );
    expect(await callTool(calculatorTool, { expression: "1+".repeat(MAX_EXPRESSION_LENGTH) + "1" })).toMatchObject({
      ok: false,
      observation: expect.stringMatching(/too long/),
    });
  });

  it("offers the model an expression argument and rejects a missing one", () => {
    expect(calculatorTool.jsonSchema).toMatchObject({ required: ["expression"] });
    expect(calculatorTool.parseArgs({}).ok).toBe(false);
    expect(calculatorTool.parseArgs("2*3")).toEqual({ ok: true, value: { expression: "2*3" } });
  });
});

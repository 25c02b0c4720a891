import { all, create } from "mathjs";
import { z } from "zod";
import { defineTool } from "../define-tool.js";

export const MAX_EXPRESSION_LENGTH = 500;

const math = create(all!);
const evaluate = math.evaluate.bind(math);
const format = math.format.bind(math);

/**
 * Functions that reach outside a plain expression (defining units, re-entering the parser,
 * importing) or that can allocate without bound from a short input (huge ranges and matrices).
 * They are replaced after `evaluate` was captured, so expressions can no longer call them.
 */
const REFUSED = [
  "import",
  "createUnit",
  "evaluate",
  "parse",
  "simplify",
  "simplifyConstant",
  "simplifyCore",
  "rationalize",
  "derivative",
  "resolve",
  "compile",
  "parser",
  "reviver",
  "replacer",
  "range",
  "zeros",
  "ones",
  "identity",
  "random",
  "randomInt",
  "pickRandom",
];
math.import(
  Object.fromEntries(
    REFUSED.map((name) => [
      name,
      () => {
        throw new Error(`the function "${name}" is not available in this calculator`);
      },
    ]),
  ),
  { override: true },
);

export function calculate(expression: string): string {
  const trimmed = expression.trim();
  if (trimmed === "") throw new Error("the expression is empty");
  if (trimmed.length > MAX_EXPRESSION_LENGTH) {
    throw new Error(`the expression is too long (${trimmed.length} characters, at most ${MAX_EXPRESSION_LENGTH})`);
  }
  let result: unknown;
  try {
    result = evaluate(trimmed);
  } catch (error) {
    throw new Error(`could not evaluate "${trimmed}": ${(error as Error).message}`);
  }
  if (typeof result === "function" || result === undefined) {
    throw new Error(`"${trimmed}" does not evaluate to a value`);
  }
  return format(result, { precision: 14 });
}

export const calculatorTool = defineTool({
  name: "calculator",
  description:
    "Evaluates a math expression and returns the exact result. Use it for any arithmetic. " +
    "Supports + - * / ^, parentheses, sqrt, sin/cos/tan (radians, or append 'deg'), log, exp, pi, e and units (e.g. '5 km to mi').",
  parameters: z.object({
    expression: z.string().describe("The expression, for example '(3.5 + 4) * 2^3' or 'sqrt(2) * 10'"),
  }),
  run: ({ expression }) => calculate(expression),
});

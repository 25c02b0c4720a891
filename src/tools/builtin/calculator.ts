import { z } from "zod";
import { cpuPool } from "../cpu/cpu-pool.js";
import { defineTool } from "../define-tool.js";
import { checkExpression } from "./calculator-limits.js";

export { MAX_EXPRESSION_LENGTH } from "./calculator-limits.js";

/**
 * mathjs runs in a worker thread (calculator-engine.ts): an expression that computes for
 * seconds or asks for gigabytes stops at the tool's time limit or the thread's heap cap,
 * while the other conversations go on.
 */
export const calculatorTool = defineTool({
  name: "calculator",
  example: "What is 17.5% of 2,340?",
  description:
    "Evaluates a math expression and returns the exact result. Use it for any arithmetic. " +
    "Supports + - * / ^, parentheses, sqrt, sin/cos/tan (radians, or append 'deg'), log, exp, pi, e and units (e.g. '5 km to mi').",
  parameters: z.object({
    expression: z.string().describe("The expression, for example '(3.5 + 4) * 2^3' or 'sqrt(2) * 10'"),
  }),
  run: ({ expression }, ctx) => cpuPool().run("calculate", checkExpression(expression), ctx.signal),
});

import type { FormatOptions } from "mathjs";
import { createRequire } from "node:module";
import { checkExpression, MAX_FORMAT_PRECISION, MAX_RESULT_CHARS, MAX_RESULT_VALUES } from "./calculator-limits.js";

/**
 * The calculator's mathjs instance. Loaded only in a CPU worker thread (see ../cpu/), never in
 * the main process. mathjs is required as CommonJS on purpose: that path bypasses tsx's ESM hooks
 * in the worker, which would otherwise double the time a fresh worker takes to load it.
 */
const mathjs: typeof import("mathjs") = createRequire(import.meta.url)("mathjs");
const math = mathjs.create(mathjs.all!);
const evaluate = math.evaluate.bind(math);
const format = math.format.bind(math);
const size = math.size.bind(math);

/**
 * Functions an expression may not call. Some reach outside a plain expression (defining units,
 * re-entering the parser, importing, changing the shared configuration such as the bignumber
 * precision). Others build matrices, sets or signals without bound from a few characters
 * (`resize([1], [30000, 30000])` asks for 900 million values). The worker's heap cap and time
 * limit stop whatever else runs away; refusing these by name gives a clear answer instead.
 * They are replaced after `evaluate` was captured, so expressions can no longer call them.
 */
const REFUSED = [
  // reaching outside the expression
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
  "config",
  // unbounded allocation from a short input
  "range",
  "zeros",
  "ones",
  "identity",
  "resize",
  "reshape",
  "kron",
  "concat",
  "diag",
  "sparse",
  "subset",
  "matrixFromFunction",
  "matrixFromRows",
  "matrixFromColumns",
  "setCartesian",
  "setPowerset",
  "fft",
  "ifft",
  "freqz",
  "zpk2tf",
  "solveODE",
  "random",
  "randomInt",
  "pickRandom",
];
math.import(
  {
    ...Object.fromEntries(
      REFUSED.map((name) => [
        name,
        () => {
          throw new Error(`the function "${name}" is not available in this calculator`);
        },
      ]),
    ),
    format: (value: unknown, options?: FormatOptions | number) => format(value, limitPrecision(options)),
  },
  { override: true },
);

/** `format(x, 1e9)` would build a string of a billion digits. */
function limitPrecision<Options extends FormatOptions | number | undefined>(options: Options): Options {
  const precision = typeof options === "number" ? options : options?.precision;
  if (typeof precision === "number" && precision > MAX_FORMAT_PRECISION) {
    throw new Error(`format shows at most ${MAX_FORMAT_PRECISION} significant digits`);
  }
  return options;
}

export function calculate(expression: string): string {
  const trimmed = checkExpression(expression);
  let result: unknown;
  try {
    result = evaluate(trimmed);
  } catch (error) {
    throw new Error(`could not evaluate "${trimmed}": ${(error as Error).message}`);
  }
  if (typeof result === "function" || result === undefined) {
    throw new Error(`"${trimmed}" does not evaluate to a value`);
  }
  refuseLargeMatrices(result);
  const text = format(result, { precision: 14 });
  if (text.length <= MAX_RESULT_CHARS) return text;
  return `${text.slice(0, MAX_RESULT_CHARS)}… [shortened: ${text.length} characters]`;
}

/** Formatting a matrix of millions of values would take longer than computing it; refuse it first. */
function refuseLargeMatrices(result: unknown): void {
  const parts = math.isResultSet(result) ? (result as unknown as { entries: unknown[] }).entries : [result];
  for (const part of parts) {
    if (!math.isMatrix(part) && !Array.isArray(part)) continue;
    const dimensions = size(part as number[]) as unknown as number[];
    const values = dimensions.reduce((product, n) => product * n, 1);
    if (values > MAX_RESULT_VALUES) {
      throw new Error(`the result has ${dimensions.join("×")} values, too many to show (at most ${MAX_RESULT_VALUES})`);
    }
  }
}

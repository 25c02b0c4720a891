/** Limits of the calculator, shared by the tool (main thread) and its engine (worker thread). */
export const MAX_EXPRESSION_LENGTH = 500;
/** Values in a matrix result at most: a larger one is refused before it is formatted. */
export const MAX_RESULT_VALUES = 1_000;
/** Characters of a formatted result at most; the rest is cut with a marker. */
export const MAX_RESULT_CHARS = 2_000;
/** The most significant digits `format` may be asked for. */
export const MAX_FORMAT_PRECISION = 64;

/** The trimmed expression, or an error that says what is wrong with it. */
export function checkExpression(expression: string): string {
  const trimmed = expression.trim();
  if (trimmed === "") throw new Error("the expression is empty");
  if (trimmed.length > MAX_EXPRESSION_LENGTH) {
    throw new Error(`the expression is too long (${trimmed.length} characters, at most ${MAX_EXPRESSION_LENGTH})`);
  }
  return trimmed;
}

import { z } from "zod";
import { defineTool } from "../define-tool.js";
import { formatNumber } from "./format-number.js";

const side = z.number().positive();

interface RightTriangle {
  adjacent_side?: number;
  opposite_side?: number;
  /** The angle between the adjacent side and the hypotenuse, in degrees. */
  angle?: number;
}

function hypotenuse({ adjacent_side: a, opposite_side: o, angle }: RightTriangle): number {
  if (angle !== undefined && !(angle > 0 && angle < 90)) {
    throw new Error(`the angle must be between 0 and 90 degrees (got ${angle})`);
  }
  const radians = angle === undefined ? undefined : (angle * Math.PI) / 180;
  if (a !== undefined && o !== undefined) return Math.hypot(a, o);
  if (a !== undefined && radians !== undefined) return a / Math.cos(radians);
  if (o !== undefined && radians !== undefined) return o / Math.sin(radians);
  const given = Object.entries({ adjacent_side: a, opposite_side: o, angle })
    .filter(([, value]) => value !== undefined)
    .map(([name]) => name);
  throw new Error(`need two of adjacent_side, opposite_side and angle (in degrees); got ${given.length === 0 ? "none" : `only ${given.join(", ")}`}`);
}

export const hypotenuseTool = defineTool({
  name: "hypotenuse",
  example: "How long is the diagonal of a 3 by 4 m room?",
  description:
    "Calculates the hypotenuse of a right triangle from any two of: adjacent_side, opposite_side, " +
    "and angle (in degrees, between the adjacent side and the hypotenuse).",
  parameters: z.object({
    adjacent_side: side.optional().describe("Length of the side adjacent to the angle"),
    opposite_side: side.optional().describe("Length of the side opposite the angle"),
    angle: z.number().optional().describe("The angle in degrees (0 < angle < 90)"),
  }),
  run: (args) => formatNumber(hypotenuse(args)),
});

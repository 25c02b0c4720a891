import { z } from "zod";
import { defineTool } from "../define-tool.js";
import { formatNumber } from "./format-number.js";

export const circumferenceTool = defineTool({
  name: "circumference",
  example: "What is the circumference of a circle of radius 7.81?",
  description: "Calculates the circumference of a circle from its radius (2πr).",
  parameters: z.object({
    radius: z.number().nonnegative().describe("The radius of the circle"),
  }),
  run: ({ radius }) => formatNumber(2 * Math.PI * radius),
});

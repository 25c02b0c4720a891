import { z } from "zod";
import { defineTool } from "agent-bot/plugin";

/** A fixed rate keeps the example free of any network or library. */
const EUR_TO_USD = 1.07;

export const eurToUsd = defineTool({
  name: "eur_to_usd",
  description: "Converts euros (EUR) to US dollars (USD) at a fixed rate of 1.07. Input: the amount in euros.",
  parameters: z.object({
    eur: z.number().describe("The amount in euros, e.g. 10.5"),
  }),
  run: ({ eur }) => `${eur.toFixed(2)} EUR = ${(eur * EUR_TO_USD).toFixed(2)} USD (fixed rate ${EUR_TO_USD})`,
});

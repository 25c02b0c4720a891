import { z } from "zod";
import { defineTool } from "agent-bot/plugin";

const RATES = { USD: 1.07, GBP: 0.86, JPY: 150.13 } as const;

export const eurToCurrency = defineTool({
  name: "eur_to_currency",
  description:
    "Converts euros to US dollars (USD), British pounds (GBP) or Japanese yen (JPY) at fixed rates and writes the result with the currency's symbol.",
  parameters: z.object({
    eur: z.number().describe("The amount in euros"),
    currency: z.enum(["USD", "GBP", "JPY"]).describe("The currency to convert to"),
  }),
  // The tool's output is the answer: no further model call after it.
  returnDirect: true,
  async run({ eur, currency }, ctx) {
    // A side question to the model: no tools, no memory; its tokens count towards the turn.
    const reply = await ctx.llm(`Reply with only the symbol of a currency. Examples: EUR -> €. ${currency} ->`);
    // The model's reply is untrusted text: accept a short symbol, fall back to the code.
    const symbol = /^\S{1,3}$/.test(reply.trim()) ? reply.trim() : ` ${currency}`;
    return `${eur}€ = ${(eur * RATES[currency]).toFixed(2)}${symbol}`;
  },
});

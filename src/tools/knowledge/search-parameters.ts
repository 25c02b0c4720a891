import { z } from "zod";

/** The arguments every knowledge tool takes: a query, and how many results to read (optional). */
export function searchParameters(options: { query: string; noun: string; max: number; fallback: number }) {
  return z.object({
    query: z.string().trim().min(1).max(300).describe(options.query),
    max_results: z.number().int().min(1).max(options.max).optional().describe(`How many ${options.noun} (1-${options.max}, default ${options.fallback})`),
  });
}

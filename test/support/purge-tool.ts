import { z } from "zod";
import { defineTool, type Tool } from "../../src/tools/define-tool.js";

/**
 * A tool with an effect worth approving, for the approval tests: `purge` records each cache it
 * was called with in `ran`, so a test sees whether (and with what) it ran.
 */
export function purgeTool(): { purge: Tool; ran: string[] } {
  const ran: string[] = [];
  const purge = defineTool({
    name: "purge",
    description: "Purges a cache.",
    parameters: z.object({ cache: z.string() }),
    run: ({ cache }) => (ran.push(cache), `purged ${cache}`),
  });
  return { purge, ran };
}

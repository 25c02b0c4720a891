import { z } from "zod";
import { defineTool } from "../define-tool.js";

function isValidTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export function describeTime(now: Date, timeZone?: string): string {
  const zone = timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (!isValidTimeZone(zone)) {
    throw new Error(`unknown time zone "${zone}"; use an IANA name such as Europe/Paris or America/New_York`);
  }
  const text = new Intl.DateTimeFormat("en-GB", {
    timeZone: zone,
    dateStyle: "full",
    timeStyle: "long",
  }).format(now);
  return `${text} (${zone}; UTC ${now.toISOString()})`;
}

export const timeTool = defineTool({
  name: "get_time",
  example: "What time is it in Tokyo?",
  description:
    'Tells the current date and time. Use it for "what time is it", "what day is today" and the like. ' +
    "Optionally takes an IANA time zone such as Europe/Paris; defaults to the server's time zone.",
  parameters: z.object({
    timezone: z.string().optional().describe("IANA time zone name, e.g. Asia/Tokyo"),
  }),
  run: ({ timezone }) => describeTime(new Date(), timezone),
});

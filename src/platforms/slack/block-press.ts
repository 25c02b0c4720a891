import { z } from "zod";

/** The fields of a `block_actions` payload (a press on a button of the bot's) the adapter reads; anything else passes through. */
export const blockPressSchema = z.object({
  user: z.object({ id: z.string() }),
  team: z.object({ id: z.string() }).nullish(),
  enterprise: z.object({ id: z.string() }).nullish(),
  channel: z.object({ id: z.string() }).optional(),
  message: z.object({ ts: z.string(), thread_ts: z.string().optional() }).optional(),
  actions: z.array(z.object({ action_id: z.string(), value: z.string().optional() })).min(1),
});

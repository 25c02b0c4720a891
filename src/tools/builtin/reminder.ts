import { z } from "zod";
import { defineTool, type ToolRequestInfo } from "../define-tool.js";

/** Where reminders are made: the scheduled tasks (issue 26), as one-off tasks for the asker in the asking channel. */
export interface ReminderDesk {
  /** Resolves to what to tell the model: the reminder's id and time, or why it could not be made. */
  remind(request: ToolRequestInfo, when: string, text: string): Promise<string>;
}

/** `create_reminder`: a one-off reminder for the person asking, in this channel. Recurring tasks are made only with /schedule. */
export function createReminderTool(desk: ReminderDesk) {
  return defineTool({
    name: "create_reminder",
    example: "Remind me tomorrow at 9 to send the report.",
    description:
      'Sets a one-off reminder for the person asking, posted in this channel at that time ("remind me in two hours to check the deploy"). ' +
      'when: "in 20 minutes", "in 2 hours", "in 30 seconds" or "at 2026-12-24 18:00" (the workspace\'s time zone). Not for recurring tasks.',
    parameters: z.object({
      when: z.string().min(1).max(100).describe('When: "in 2 hours", "in 20 minutes", "at 2026-12-24 18:00"'),
      text: z.string().min(1).max(1_000).describe("What to remind them of, in their words"),
    }),
    run: ({ when, text }, ctx) => desk.remind(ctx.request, when, text),
  });
}

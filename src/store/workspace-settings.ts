import { z } from "zod";

/** What admins can set per workspace. Absent = the global default. */
const workspaceSettingsSchema = z.object({
  /** Channels where the bot answers; absent means every channel. */
  channels: z.array(z.string()).optional(),
  ignoredUsers: z.array(z.string()).optional(),
  ignoredRoles: z.array(z.string()).optional(),
  memoryWindow: z.number().int().positive().optional(),
  systemPrompt: z.string().optional(),
  /** Scheduled tasks: the IANA zone their times are in (absent: SCHEDULE_TIMEZONE). */
  timeZone: z.string().optional(),
  /** Scheduled tasks: members may create them (and manage their own); absent or false, admins only. */
  scheduleMembers: z.boolean().optional(),
  /** The summary of what left the memory window (issue 24); absent: on (unless MEMORY_SUMMARY=off). */
  memorySummary: z.boolean().optional(),
  /** Where budget alerts go (`/settings alerts-channel`); else a direct message to each admin. */
  budgetAlertsChannel: z.string().optional(),
});

export type WorkspaceSettings = z.infer<typeof workspaceSettingsSchema>;

/**
 * Workspaces read that ignore one user (WorkspaceSettingsStore.workspacesIgnoring): a direct
 * message asks its platform about each, so anyone making many workspaces costs a bounded check.
 */
export const IGNORING_WORKSPACES_READ = 50;
export type WorkspaceSettingKey = keyof WorkspaceSettings;

/** The settings from their stored rows; rows a later version wrote in another shape are ignored as a whole. */
export function settingsFromRows(rows: { key: string; value: unknown }[]): WorkspaceSettings {
  const parsed = workspaceSettingsSchema.safeParse(Object.fromEntries(rows.map((row) => [row.key, row.value])));
  return parsed.success ? parsed.data : {};
}

import { z } from "zod";

/** What admins can set per workspace. Absent = the global default. */
const workspaceSettingsSchema = z.object({
  /** Channels where the bot answers; absent means every channel. */
  channels: z.array(z.string()).optional(),
  ignoredUsers: z.array(z.string()).optional(),
  ignoredRoles: z.array(z.string()).optional(),
  memoryWindow: z.number().int().positive().optional(),
  systemPrompt: z.string().optional(),
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

import type { WorkspaceSettingsStore } from "../store/store.js";
import type { WorkspaceRef } from "../store/types.js";
import { isTimeZone } from "../scheduler/when.js";

/**
 * The time zone of a workspace's scheduled times: its own (`/settings timezone`), else the default
 * (SCHEDULE_TIMEZONE). A stored name this runtime no longer knows falls back to the default.
 */
export async function workspaceTimeZone(settings: Pick<WorkspaceSettingsStore, "get">, workspace: WorkspaceRef, fallback: string): Promise<string> {
  const zone = (await settings.get(workspace)).timeZone;
  return zone !== undefined && isTimeZone(zone) ? zone : fallback;
}

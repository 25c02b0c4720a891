import type { Installation, InstallationQuery, InstallationStore } from "@slack/bolt";
import { z } from "zod";
import type { InstallationVault } from "../../contract/platform.js";
import { PLATFORM, workspaceOf } from "./inbound.js";
import { BotError } from "../../errors.js";

/** What a stored installation must have for the bot to act in its workspace (the rest passes through). */
const storedInstallationSchema = z
  .object({
    team: z.object({ id: z.string() }).passthrough().optional(),
    enterprise: z.object({ id: z.string() }).passthrough().optional(),
    isEnterpriseInstall: z.boolean().optional(),
    bot: z.object({ token: z.string(), userId: z.string(), id: z.string().optional() }).passthrough().optional(),
  })
  .passthrough();

/**
 * Where one installation is kept: an Enterprise Grid org-wide install under its organisation
 * (every workspace of it shares that one install), any other under its workspace.
 */
export function installationKey(where: { isEnterpriseInstall?: boolean; enterpriseId?: string; teamId?: string }): string | undefined {
  if (where.isEnterpriseInstall && where.enterpriseId) return `enterprise:${where.enterpriseId}`;
  return where.teamId ? `team:${where.teamId}` : undefined;
}

/** No installation for the workspace an event or a request names (never installed, or uninstalled). */
class NotInstalledError extends BotError<"not_installed"> {
  override readonly name = "NotInstalledError";
  constructor(message: string, options?: ErrorOptions) {
    super("not_installed", message, options);
  }
}

/**
 * Bolt's InstallationStore over ours: each installation (tokens, refresh tokens and their expiry
 * included) is kept sealed with SECRETS_KEY; Bolt's OAuth flow stores it, its authorize fetches
 * it for every event and stores it again when it refreshed an expiring token.
 */
export class SlackInstallationStore implements InstallationStore {
  constructor(
    private readonly vault: InstallationVault,
    /** Told of every installation stored (an install, a reinstall, a refreshed token): the workspace is (still) here. */
    private readonly onStored: (workspaceId: string) => Promise<void> = async () => {},
  ) {}

  async storeInstallation<V extends "v1" | "v2">(installation: Installation<V, boolean>): Promise<void> {
    const key = installationKey({
      isEnterpriseInstall: installation.isEnterpriseInstall,
      enterpriseId: installation.enterprise?.id,
      teamId: installation.team?.id,
    });
    if (!key) throw new Error("Slack's installation names neither a workspace nor an organisation");
    const expiresAt = installation.bot?.expiresAt;
    await this.vault.save(PLATFORM, key, {
      teamId: installation.team?.id,
      enterpriseId: installation.enterprise?.id,
      data: JSON.stringify(installation),
      ...(expiresAt !== undefined ? { expiresAt: expiresAt * 1000 } : {}),
    });
    await this.onStored(workspaceOf({ teamId: installation.team?.id, enterpriseId: installation.enterprise?.id }));
  }

  async fetchInstallation(query: InstallationQuery<boolean>): Promise<Installation<"v1" | "v2", boolean>> {
    for (const key of keysFor(query)) {
      const data = await this.vault.find(PLATFORM, key);
      if (data === undefined) continue;
      const parsed = storedInstallationSchema.safeParse(JSON.parse(data));
      if (!parsed.success) throw new Error(`the stored installation ${key} is not one Slack made`);
      return parsed.data as unknown as Installation<"v1" | "v2", boolean>;
    }
    throw new NotInstalledError(`the app is not installed in ${describe(query)}`);
  }

  /** The install the query names alone: a workspace's uninstall leaves its organisation's org-wide install be. */
  async deleteInstallation(query: InstallationQuery<boolean>): Promise<void> {
    const key = installationKey(query);
    if (key) await this.vault.remove(PLATFORM, key);
  }
}

/** The workspace's own install first; on Enterprise Grid, the organisation's org-wide one after it. */
function keysFor(query: InstallationQuery<boolean>): string[] {
  const own = installationKey(query);
  const org = query.enterpriseId ? `enterprise:${query.enterpriseId}` : undefined;
  return [...new Set([own, org].filter((key): key is string => key !== undefined))];
}

const describe = (query: InstallationQuery<boolean>) =>
  [query.teamId && `workspace ${query.teamId}`, query.enterpriseId && `organisation ${query.enterpriseId}`].filter(Boolean).join(" of ") ||
  "an unnamed workspace";

/**
 * Installations of the app in a platform's workspaces, as stored: the installation itself is
 * sealed (encrypted) before it gets here, so this layer only ever sees ciphertext.
 */
export interface InstallationRow {
  platform: string;
  /** "team:T…" for a workspace, "enterprise:E…" for an Enterprise Grid org-wide install. */
  key: string;
  teamId?: string;
  enterpriseId?: string;
  sealed: string;
  /** When the bot token expires (epoch ms), with token rotation on. */
  expiresAt?: number;
}

export interface InstallationStore {
  /** Inserts or replaces the installation under its key (a reinstall, a refreshed token). */
  put(row: InstallationRow): Promise<void>;
  get(platform: string, key: string): Promise<InstallationRow | undefined>;
  /** False when there was none. */
  delete(platform: string, key: string): Promise<boolean>;
  /** Every installation (of every platform), for a key rotation. */
  all(): Promise<InstallationRow[]>;
  /** Replaces `sealed` only if it is still `expected` (a refresh in between wins); false otherwise. */
  reseal(platform: string, key: string, expected: string, sealed: string): Promise<boolean>;
}

import type { InstallationStore } from "./installation-store.js";
import type { SecretBox } from "./secrets.js";
import { hasCode } from "../errors.js";

/** An installation as a platform hands it over: where it is, and its data (tokens included) as text. */
export interface InstallationRecord {
  teamId?: string;
  enterpriseId?: string;
  /** The platform's installation, serialised (JSON): sealed before it is stored. */
  data: string;
  expiresAt?: number;
}

export interface RotationReport {
  /** Re-encrypted with the current key. */
  resealed: number;
  /** Already sealed with it. */
  current: number;
  /** Neither key opens them: left as they are (reinstall those workspaces, or restore the old key). */
  unreadable: string[];
}

/**
 * Installations over the store, sealed with SECRETS_KEY on the way in and opened on the way out.
 * Each value is bound to its row (platform and key), so it cannot be moved to another workspace.
 */
export class SealedInstallations {
  constructor(
    private readonly repository: InstallationStore,
    private readonly box: SecretBox,
  ) {}

  async save(platform: string, key: string, record: InstallationRecord): Promise<void> {
    await this.repository.put({
      platform,
      key,
      teamId: record.teamId,
      enterpriseId: record.enterpriseId,
      sealed: this.box.seal(record.data, contextOf(platform, key)),
      expiresAt: record.expiresAt,
    });
  }

  /** The installation's data; undefined when there is none. Throws SecretsError when no configured key opens it. */
  async find(platform: string, key: string): Promise<string | undefined> {
    const row = await this.repository.get(platform, key);
    return row && this.box.open(row.sealed, contextOf(platform, key));
  }

  async remove(platform: string, key: string): Promise<boolean> {
    return this.repository.delete(platform, key);
  }

  /** `npm run rotate-secrets`: re-encrypts with SECRETS_KEY whatever SECRETS_KEY_PREVIOUS sealed. */
  async rotate(): Promise<RotationReport> {
    const report: RotationReport = { resealed: 0, current: 0, unreadable: [] };
    for (const row of await this.repository.all()) {
      if (this.box.isCurrent(row.sealed)) {
        report.current++;
        continue;
      }
      const context = contextOf(row.platform, row.key);
      let plain: string;
      try {
        plain = this.box.open(row.sealed, context);
      } catch (error) {
        if (!hasCode(error, "secret_unreadable")) throw error;
        report.unreadable.push(context);
        continue;
      }
      // A token refreshed meanwhile was sealed with the current key already: its row is left alone.
      if (await this.repository.reseal(row.platform, row.key, row.sealed, this.box.seal(plain, context))) report.resealed++;
      else report.current++;
    }
    return report;
  }
}

const contextOf = (platform: string, key: string) => `${platform}:${key}`;

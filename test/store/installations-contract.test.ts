import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { SlackInstallationStore } from "../../src/platforms/slack/installation-store.js";
import { SealedInstallations } from "../../src/store/sealed-installations.js";
import { decodeSecretsKey, SecretBox, SecretsError } from "../../src/store/secrets.js";
import type { Store } from "../../src/store/store.js";
import { describeOnEngines } from "./engines.js";

/**
 * Installations at rest, on both engines: Bolt's InstallationStore over ours, tokens sealed with
 * SECRETS_KEY (never in clear in the database), org-wide installs under their organisation, a
 * refreshed token stored again, and a key rotation (SECRETS_KEY_PREVIOUS, then rotate()).
 */
const newKey = () => randomBytes(32).toString("base64");

function teamInstall(teamId: string, token: string, extra: Record<string, unknown> = {}) {
  return {
    team: { id: teamId, name: `team ${teamId}` },
    enterprise: undefined,
    user: { id: "U1", token: undefined, scopes: undefined },
    bot: { id: "B1", userId: "UBOT", token, scopes: ["chat:write"] },
    isEnterpriseInstall: false,
    authVersion: "v2" as const,
    ...extra,
  };
}

describe("SECRETS_KEY", () => {
  it("is 32 bytes as 64 hex digits or base64, and nothing else", () => {
    const bytes = randomBytes(32);
    expect(decodeSecretsKey(bytes.toString("hex"))).toEqual(bytes);
    expect(decodeSecretsKey(bytes.toString("base64"))).toEqual(bytes);
    expect(decodeSecretsKey(bytes.toString("base64url"))).toEqual(bytes);
    expect(decodeSecretsKey(randomBytes(16).toString("base64"))).toBeUndefined();
    expect(decodeSecretsKey("correct horse battery staple")).toBeUndefined();
    expect(() => new SecretBox("too-short")).toThrow(/SECRETS_KEY must be 32 random bytes/);
  });

  it("opens what it sealed, for the same row only, and the previous key still opens what it sealed", () => {
    const old = newKey();
    const sealed = new SecretBox(old).seal("xoxb-secret", "slack:team:T1");
    expect(sealed).not.toContain("xoxb");
    expect(new SecretBox(old).open(sealed, "slack:team:T1")).toBe("xoxb-secret");
    expect(() => new SecretBox(old).open(sealed, "slack:team:T2")).toThrow(SecretsError);
    expect(() => new SecretBox(newKey()).open(sealed, "slack:team:T1")).toThrow(SecretsError);
    const rotating = new SecretBox(newKey(), old);
    expect(rotating.open(sealed, "slack:team:T1")).toBe("xoxb-secret");
    expect(rotating.isCurrent(sealed)).toBe(false);
  });
});

await describeOnEngines(
  (engine) => `the ${engine.name} store's installations`,
  1,
  (it) => {
    const slackStore = (store: Store, key: string, previous?: string) =>
      new SlackInstallationStore(new SealedInstallations(store.installations, new SecretBox(key, previous)));

    it("stores a workspace's installation sealed, and gives it back to Bolt as it was", async ({ shared, a }) => {
      const key = newKey();
      const installs = slackStore(a, key);
      await installs.storeInstallation(teamInstall("T-seal", "xoxb-plain-token-T-seal"));

      const fetched = await installs.fetchInstallation({ teamId: "T-seal", enterpriseId: undefined, isEnterpriseInstall: false });
      expect(fetched.bot?.token).toBe("xoxb-plain-token-T-seal");
      expect(fetched.team?.id).toBe("T-seal");

      const rows = await shared.rows("SELECT * FROM platform_installations WHERE install_key = 'team:T-seal'");
      expect(rows).toHaveLength(1);
      expect(JSON.stringify(rows)).not.toContain("xoxb");
      expect(String(rows[0]!.sealed)).toMatch(/^v1\./);
      // Another key opens nothing.
      await expect(slackStore(a, newKey()).fetchInstallation({ teamId: "T-seal", enterpriseId: undefined, isEnterpriseInstall: false })).rejects.toThrow(
        SecretsError,
      );
    });

    it("keys an org-wide install by its organisation: every workspace of it finds it; a workspace's own install comes first", async ({ shared, a }) => {
      const installs = slackStore(a, newKey());
      await installs.storeInstallation({
        ...teamInstall("unused", "xoxb-org-token"),
        team: undefined,
        enterprise: { id: "E-org", name: "org" },
        isEnterpriseInstall: true,
      });
      const fromOrg = await installs.fetchInstallation({ teamId: undefined, enterpriseId: "E-org", isEnterpriseInstall: true });
      expect(fromOrg.bot?.token).toBe("xoxb-org-token");
      const fromWorkspace = await installs.fetchInstallation({ teamId: "T-any", enterpriseId: "E-org", isEnterpriseInstall: false });
      expect(fromWorkspace.bot?.token).toBe("xoxb-org-token");

      await installs.storeInstallation({ ...teamInstall("T-own", "xoxb-own-token"), enterprise: { id: "E-org" } });
      expect((await installs.fetchInstallation({ teamId: "T-own", enterpriseId: "E-org", isEnterpriseInstall: false })).bot?.token).toBe("xoxb-own-token");
      // The workspace's uninstall leaves the organisation's install in place.
      await installs.deleteInstallation({ teamId: "T-own", enterpriseId: "E-org", isEnterpriseInstall: false });
      expect((await installs.fetchInstallation({ teamId: "T-own", enterpriseId: "E-org", isEnterpriseInstall: false })).bot?.token).toBe("xoxb-org-token");
      expect(await shared.rows("SELECT install_key FROM platform_installations WHERE enterprise_id = 'E-org' ORDER BY install_key")).toEqual([
        { install_key: "enterprise:E-org" },
      ]);
    });

    it("keeps a rotating token's refresh token and expiry, and the refreshed one replaces it", async ({ shared, a }) => {
      const installs = slackStore(a, newKey());
      const expiresAt = Math.floor(Date.now() / 1000) + 60;
      const rotating = teamInstall("T-rot", "xoxe.xoxb-first", {
        bot: { id: "B1", userId: "UBOT", token: "xoxe.xoxb-first", refreshToken: "xoxe-1-refresh", expiresAt },
      });
      await installs.storeInstallation(rotating);
      await installs.storeInstallation({
        ...rotating,
        bot: { ...rotating.bot, token: "xoxe.xoxb-second", refreshToken: "xoxe-1-refresh-2", expiresAt: expiresAt + 43_200 },
      });

      const fetched = await installs.fetchInstallation({ teamId: "T-rot", enterpriseId: undefined, isEnterpriseInstall: false });
      expect(fetched.bot).toMatchObject({ token: "xoxe.xoxb-second", refreshToken: "xoxe-1-refresh-2", expiresAt: expiresAt + 43_200 });
      const rows = await shared.rows("SELECT expires_at FROM platform_installations WHERE install_key = 'team:T-rot'");
      expect(Number(rows[0]!.expires_at)).toBe((expiresAt + 43_200) * 1000);
      expect(JSON.stringify(await shared.rows("SELECT * FROM platform_installations WHERE install_key = 'team:T-rot'"))).not.toContain("refresh");
    });

    it("an uninstall deletes the installation: Bolt then finds none", async ({ shared, a }) => {
      const installs = slackStore(a, newKey());
      await installs.storeInstallation(teamInstall("T-gone", "xoxb-gone"));
      await installs.deleteInstallation({ teamId: "T-gone", enterpriseId: undefined, isEnterpriseInstall: false });
      await expect(installs.fetchInstallation({ teamId: "T-gone", enterpriseId: undefined, isEnterpriseInstall: false })).rejects.toThrow(/not installed/);
      expect(await shared.rows("SELECT * FROM platform_installations WHERE install_key = 'team:T-gone'")).toEqual([]);
    });

    it("a rotated key still decrypts, and rotate() re-encrypts everything with the new key", async ({ shared, a }) => {
      const old = newKey();
      await slackStore(a, old).storeInstallation(teamInstall("T-rotate-key", "xoxb-rotate-key"));
      const fresh = newKey();
      const query = { teamId: "T-rotate-key", enterpriseId: undefined, isEnterpriseInstall: false } as const;
      expect((await slackStore(a, fresh, old).fetchInstallation(query)).bot?.token).toBe("xoxb-rotate-key");
      await expect(slackStore(a, fresh).fetchInstallation(query)).rejects.toThrow(SecretsError);

      const before = await shared.rows("SELECT sealed FROM platform_installations WHERE install_key = 'team:T-rotate-key'");
      const report = await new SealedInstallations(a.installations, new SecretBox(fresh, old)).rotate();
      expect(report.resealed).toBe(1);
      // The earlier tests' rows were sealed with keys neither of these is: named, left alone.
      expect(report.unreadable).toContain("slack:team:T-seal");
      const after = await shared.rows("SELECT sealed FROM platform_installations WHERE install_key = 'team:T-rotate-key'");
      expect(after[0]!.sealed).not.toBe(before[0]!.sealed);
      expect((await slackStore(a, fresh).fetchInstallation(query)).bot?.token).toBe("xoxb-rotate-key");
      const again = await new SealedInstallations(a.installations, new SecretBox(fresh)).rotate();
      expect(again.resealed).toBe(0);
    });
  },
);

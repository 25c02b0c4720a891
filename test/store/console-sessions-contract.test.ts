import { createHash } from "node:crypto";
import { expect } from "vitest";
import { Sessions } from "../../src/console/security.js";
import { OPERATOR, type Viewer } from "../../src/console/viewer.js";
import { describeOnEngines } from "./engines.js";

/**
 * The console's sessions in the store (migration 023), the same on both engines, with two stores
 * on one database standing for two processes: a sign-in made through one is good in the other,
 * until it expires or is ended in either; only a hash of the cookie's secret is kept.
 */
const HOUR = 60 * 60 * 1000;

await describeOnEngines(
  (engine) => `the ${engine.name} store's console sessions`,
  2,
  (it) => {
    let clock = 1_000_000;
    const now = () => clock;

    const admin: Viewer = { userId: "U1", operator: false, platform: "discord", workspaceIds: ["G1", "G2"], name: "bob" };

    it("signs in through one process and is signed in through the other, with the same CSRF token, until sign-out", async ({ a, b, shared }) => {
      const first = new Sessions(a.consoleSessions, 12 * HOUR, now);
      const second = new Sessions(b.consoleSessions, 12 * HOUR, now);
      const session = await first.create(admin);
      const seen = await second.get(session.id);
      expect(seen).toEqual({ id: session.id, csrf: session.csrf, viewer: admin, expiresAt: clock + 12 * HOUR });
      expect(session.csrf).not.toBe(session.id);
      expect((await second.get(session.id.replace(/.$/, (c) => (c === "A" ? "B" : "A")))) ?? "none").toBe("none");
      expect(await second.get(undefined)).toBeUndefined();

      // only the hash of the secret is in the database, and nothing of the CSRF token
      const rows = await shared.rows(`SELECT id_hash, viewer FROM console_sessions`);
      expect(rows.map((row) => row.id_hash)).toContain(createHash("sha256").update(session.id).digest("hex"));
      expect(JSON.stringify(rows)).not.toContain(session.id);
      expect(JSON.stringify(rows)).not.toContain(session.csrf);

      await second.end(session.id);
      expect(await first.get(session.id)).toBeUndefined();
    });

    it("refuses a session once it expired, and deletes expired ones as new ones are made", async ({ a, b, shared }) => {
      const sessions = new Sessions(a.consoleSessions, HOUR, now);
      const old = await sessions.create(OPERATOR);
      clock += HOUR - 1;
      expect((await new Sessions(b.consoleSessions, HOUR, now).get(old.id))?.viewer).toEqual(OPERATOR);
      clock += 1;
      expect(await sessions.get(old.id)).toBeUndefined();
      const fresh = await new Sessions(b.consoleSessions, HOUR, now).create(OPERATOR);
      const hashes = (await shared.rows(`SELECT id_hash FROM console_sessions`)).map((row) => row.id_hash);
      expect(hashes).not.toContain(createHash("sha256").update(old.id).digest("hex"));
      expect(hashes).toContain(createHash("sha256").update(fresh.id).digest("hex"));
    });
  },
);

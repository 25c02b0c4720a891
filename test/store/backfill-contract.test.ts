import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { describeOnEngines } from "./engines.js";

/**
 * Channel history backfills on both engines, two stores on one database as two processes: one
 * process reads a backfill at a time (a lease), each page's cursor is kept, a backfill let go of
 * (shutdown) or whose lease ran out is resumable from that cursor, and a running one is not started over.
 */
await describeOnEngines(
  (engine) => `history backfills on the ${engine.name} store`,
  2,
  (it) => {
    it("one process at a time, the cursor kept page by page, resumable after a release or a lapsed lease", async ({ a, b }) => {
      const platform = `p-${randomUUID()}`;
      const channel = { platform, workspaceId: "w1", channelId: "c1" };
      const now = 1_000_000;
      expect(await a.backfills.begin(channel, "admin", now - 86_400_000, now)).toBe(true);
      expect(await b.backfills.resumable(platform, now)).toHaveLength(1);

      const claims = await Promise.all([a.backfills.claim(channel, "A", now, 60_000), b.backfills.claim(channel, "B", now, 60_000)]);
      expect(claims.filter(Boolean)).toHaveLength(1);
      const [owner, other] = claims[0] ? (["A", b] as const) : (["B", a] as const);
      expect(await other.backfills.resumable(platform, now)).toEqual([]);
      // a running backfill held by a process is not started over
      expect(await other.backfills.begin(channel, "admin", now, now)).toBe(false);

      expect(await a.backfills.advance(channel, owner, { cursor: "page-2", read: 100, oldestAt: now - 5_000 }, now + 1)).toBe(true);
      expect(await a.backfills.advance(channel, "someone else", { cursor: "lost", read: 1 }, now + 1)).toBe(false);
      expect(await b.backfills.advance(channel, owner, { cursor: "page-3", read: 50 }, now + 2)).toBe(true);
      expect(await b.backfills.get(channel)).toMatchObject({ cursor: "page-3", read: 150, oldestAt: now - 5_000, status: "running", requestedBy: "admin" });

      // shutdown lets go: resumable at once, from its cursor
      await a.backfills.release(channel, owner);
      const [resumed] = await b.backfills.resumable(platform, now + 3);
      expect(resumed).toMatchObject({ channelId: "c1", cursor: "page-3", read: 150 });
      expect(await b.backfills.claim(channel, "B2", now + 3, 60_000)).toBe(true);
      // a lapsed lease (a process that died) is taken over
      expect(await a.backfills.claim(channel, "A2", now + 3 + 60_001, 60_000)).toBe(true);
      expect(await b.backfills.advance(channel, "B2", { read: 1 }, now + 4)).toBe(false);

      await a.backfills.finish(channel, "A2", "done", now + 5);
      expect(await a.backfills.resumable(platform, now + 10 ** 9)).toEqual([]);
      expect((await b.backfills.get(channel))?.status).toBe("done");
      // a finished backfill may be started over, from nothing
      expect(await b.backfills.begin(channel, "admin2", now, now + 6)).toBe(true);
      expect(await a.backfills.get(channel)).toMatchObject({ read: 0, status: "running", requestedBy: "admin2" });
      expect((await a.backfills.get(channel))?.cursor).toBeUndefined();
    });
  },
);

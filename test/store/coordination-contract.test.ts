import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { expect } from "vitest";
import type { InstanceRun, QueueAdmission, QueueTicket, Store } from "../../src/store/store.js";
import type { ConversationRef } from "../../src/store/types.js";
import { describeOnEngines } from "./engines.js";

/**
 * What several bot processes on one database rely on, for both engines: one line per
 * conversation whichever process took the place, limits counted for all, leases that let the
 * survivors mark a dead process's turns interrupted, migrations applied once.
 */
const LONG = 60_000;
/** Positions in arrival order for places the tests take without a platform order of their own. */
let arrivals = 0;
const ticketOf = (admission: QueueAdmission): QueueTicket => {
  if (!("ticket" in admission)) throw new Error(`refused: ${admission.refused}`);
  return admission.ticket;
};
/** A process id of this host that no longer runs. */
const deadPid = () => spawnSync(process.execPath, ["-e", ""]).pid!;

await describeOnEngines(
  (engine) => `several processes on one ${engine.name} database`,
  2,
  (it, engine) => {
    const place = (): ConversationRef => ({ platform: "test", workspaceId: `w-${randomUUID()}`, channelId: "c1" });
    /** A place taken (in arrival order, unless `order` says otherwise) and admitted, as the runner does. */
    const enter = async (
      store: Store,
      conversation: ConversationRef,
      extra: { maxDepth?: number; rate?: { key: string; limit: number }; order?: string; instance?: string; startIfFirst?: boolean } = {},
    ): Promise<QueueAdmission> => {
      const taken = await store.queue.claim({ conversation, instance: extra.instance ?? "live", order: extra.order ?? String(++arrivals), addressed: true });
      if (!("placed" in taken)) throw new Error(`skipped: ${taken.skipped}`);
      return store.queue.admit(taken.placed, {
        maxDepth: extra.maxDepth ?? 10,
        rate: extra.rate && { ...extra.rate, windowMs: LONG },
        startIfFirst: extra.startIfFirst,
      });
    };
    const waitFor = (store: Store, ticket: QueueTicket) => store.queue.waitForTurn(ticket, { signal: AbortSignal.timeout(LONG), staleAfterMs: LONG });
    /** Whether the wait is still on after the other process had time to look several times. */
    const stillWaiting = async (wait: Promise<void>) => {
      let done = false;
      void wait.then(() => (done = true));
      await new Promise((resolve) => setTimeout(resolve, 300));
      return !done;
    };

    it("lines a conversation's turns up in the order they took their places, across processes", async ({ a, b }) => {
      const ref = place();
      const first = ticketOf(await enter(a, ref));
      const second = ticketOf(await enter(b, ref));
      const elsewhere = ticketOf(await enter(b, place()));

      // another conversation does not wait; the first place does not either
      await b.queue.waitForTurn(elsewhere, { signal: AbortSignal.timeout(LONG), staleAfterMs: LONG });
      await a.queue.waitForTurn(first, { signal: AbortSignal.timeout(LONG), staleAfterMs: LONG });
      let secondMayRun = false;
      const waiting = b.queue.waitForTurn(second, { signal: AbortSignal.timeout(LONG), staleAfterMs: LONG }).then(() => (secondMayRun = true));
      // the second looks at least twice while the first holds its place
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(secondMayRun).toBe(false);
      await a.queue.leave(first);
      await waiting;
      expect(secondMayRun).toBe(true);
      await b.queue.leave(second);
      await b.queue.leave(elsewhere);
    });

    it("starts a place with its admission when asked and nothing is in its way, and never one that something is in the way of", async ({ a, b }) => {
      const ref = place();
      const first = await enter(a, ref, { startIfFirst: true });
      // SQLite starts it in the admission's own transaction; PostgreSQL leaves it to waitForTurn.
      if (engine.name === "SQLite") expect(first).toMatchObject({ started: true });
      const second = await enter(b, ref, { startIfFirst: true });
      expect("started" in second && second.started).toBeFalsy();
      if ("started" in first && first.started) {
        const secondWait = waitFor(b, ticketOf(second));
        expect(await stillWaiting(secondWait)).toBe(true);
        await a.queue.leave(ticketOf(first));
        await secondWait;
      } else {
        await waitFor(a, ticketOf(first));
        await a.queue.leave(ticketOf(first));
        await waitFor(b, ticketOf(second));
      }
      await b.queue.leave(ticketOf(second));
    });

    it("lines turns up in their messages' platform order, not in the order their places were taken", async ({ a, b }) => {
      const ref = place();
      // Snowflake-sized positions: compared as numbers (as text, the 19-digit one would come first).
      const later = ticketOf(await enter(a, ref, { order: "1000000000000000000" }));
      const earlier = ticketOf(await enter(b, ref, { order: "999999999999999999" }));
      expect(later.id).toBeLessThan(earlier.id);

      const laterWait = waitFor(a, later);
      expect(await stillWaiting(laterWait)).toBe(true);
      await waitFor(b, earlier);
      await b.queue.leave(earlier);
      await laterWait;
      await a.queue.leave(later);
    });

    it("lets a place taken after a later message's turn started wait for that turn, and the turns after both wait for both", async ({ a, b }) => {
      const ref = place();
      const started = ticketOf(await enter(a, ref, { order: "200" }));
      await waitFor(a, started);
      const late = ticketOf(await enter(b, ref, { order: "100" }));
      const last = ticketOf(await enter(b, ref, { order: "300" }));
      const lateWait = waitFor(b, late);
      const lastWait = waitFor(a, last);
      expect(await stillWaiting(lateWait)).toBe(true);

      await a.queue.leave(started);
      await lateWait;
      expect(await stillWaiting(lastWait)).toBe(true);
      await b.queue.leave(late);
      await lastWait;
      await a.queue.leave(last);
    });

    it("claims a message and takes its place in one statement: once per message, and only for messages addressed to the bot or in its threads", async ({
      shared,
      a,
      b,
    }) => {
      const ref = place();
      const claim = (store: Store, eventId: string, addressed: boolean, threadId = "t1") =>
        store.queue.claim({
          conversation: { ...ref, threadId },
          instance: "live",
          order: String(++arrivals),
          claim: { platform: "test", eventId },
          thread: { channelId: ref.channelId, threadId, channelConversation: ref },
          addressed,
        });
      // not addressed, in a thread that is not the bot's: nothing written (not even the claim)
      expect(await claim(a, `${ref.workspaceId}:1`, false)).toEqual({ skipped: "not_addressed" });
      const mentioned = await claim(b, `${ref.workspaceId}:1`, true);
      if (!("placed" in mentioned)) throw new Error("not placed");
      expect(mentioned.scope).toBeUndefined();
      expect(mentioned.placed.conversationKey).toBe(JSON.stringify(["test", ref.workspaceId, "c1", "t1"]));
      // another delivery of the same message, to another process: no second place
      expect(await claim(a, `${ref.workspaceId}:1`, true)).toEqual({ skipped: "duplicate" });
      expect(await shared.rows(`SELECT COUNT(*) AS n FROM turn_queue WHERE conversation_key LIKE '%${ref.workspaceId}%'`)).toEqual([{ n: 1 }]);

      // in one of the bot's threads, a message need not mention it; a thread of earlier versions continues its channel's conversation
      await a.threads.remember({ platform: "test", workspaceId: ref.workspaceId, channelId: ref.channelId, threadId: "t2" }, "channel");
      const followUp = await claim(b, `${ref.workspaceId}:2`, false, "t2");
      if (!("placed" in followUp)) throw new Error("not placed");
      expect(followUp.scope).toBe("channel");
      expect(followUp.placed.conversationKey).toBe(JSON.stringify(["test", ref.workspaceId, "c1", ""]));
      await a.queue.leave(mentioned.placed);
      await b.queue.leave(followUp.placed);
    });

    it("refuses a place when the conversation's line is full, counting every process's places", async ({ a, b }) => {
      const ref = place();
      const places = [ticketOf(await enter(a, ref, { maxDepth: 2 })), ticketOf(await enter(b, ref, { maxDepth: 2 }))];
      expect(await enter(a, ref, { maxDepth: 2 })).toEqual({ refused: "queue_full" });
      await b.queue.leave(places[0]!);
      expect("ticket" in (await enter(a, ref, { maxDepth: 2 }))).toBe(true);
    });

    it("counts a user's turns per minute across processes, even when they start at once", async ({ a, b }) => {
      const rate = { key: JSON.stringify(["test", `u-${randomUUID()}`]), limit: 3 };
      const attempts = await Promise.all(Array.from({ length: 8 }, (_, i) => enter(i % 2 ? a : b, place(), { rate })));
      expect(attempts.filter((attempt) => "ticket" in attempt)).toHaveLength(3);
      expect(attempts.filter((attempt) => "refused" in attempt && attempt.refused === "rate_limited")).toHaveLength(5);
      // another user is not affected
      expect("ticket" in (await enter(a, place(), { rate: { key: JSON.stringify(["test", "someone else"]), limit: 3 } }))).toBe(true);
    });

    it("stops waiting when the turn is cancelled (shutdown), and drops a place held far longer than any turn", async ({ shared, a, b }) => {
      const ref = place();
      const held = ticketOf(await enter(a, ref));
      const waiter = ticketOf(await enter(b, ref));
      const controller = new AbortController();
      const waiting = b.queue.waitForTurn(waiter, { signal: controller.signal, staleAfterMs: LONG });
      controller.abort("shutdown");
      await expect(waiting).rejects.toBe("shutdown");

      // the same place first in line for longer than staleAfterMs was lost by its process: it goes
      await b.queue.waitForTurn(waiter, { signal: AbortSignal.timeout(LONG), staleAfterMs: 200 });
      expect(await shared.rows(`SELECT id FROM turn_queue WHERE id = ${held.id}`)).toEqual([]);
    });

    it("reaps a dead process: its running turns become interrupted, its places go, the live process's stay", async ({ shared, a, b }) => {
      const live: InstanceRun = { id: `live:${randomUUID()}`, name: "live", host: hostname(), pid: process.pid };
      const crashed: InstanceRun = { id: `crashed:${randomUUID()}`, name: "crashed", host: "another-host", pid: 1 };
      await a.instances.register(live);
      await b.instances.register(crashed);
      const ref = place();
      await a.turns.start({ id: `${live.id}-turn`, conversation: ref, userId: "u1", instance: live.id });
      await b.turns.start({ id: `${crashed.id}-turn`, conversation: ref, userId: "u2", instance: crashed.id });
      const crashedPlace = ticketOf(await enter(b, ref, { instance: crashed.id }));
      const livePlace = ticketOf(await enter(a, ref, { instance: live.id }));
      const waiting = a.queue.waitForTurn(livePlace, { signal: AbortSignal.timeout(LONG), staleAfterMs: LONG });

      expect(await a.instances.reap({ leaseMs: LONG, dead: [crashed.id] })).toEqual({ runs: 1, turns: 1 });
      await waiting;
      const statuses = await shared.rows(
        `SELECT id, status, error FROM turns WHERE id LIKE '%-turn' AND conversation_id IN (SELECT id FROM conversations WHERE workspace_id = '${ref.workspaceId}') ORDER BY user_id`,
      );
      expect(statuses).toEqual([
        { id: `${live.id}-turn`, status: "running", error: null },
        { id: `${crashed.id}-turn`, status: "interrupted", error: "the bot stopped before this turn finished" },
      ]);
      expect(await shared.rows(`SELECT id FROM turn_queue WHERE id = ${crashedPlace.id}`)).toEqual([]);
      // a process that was taken for dead learns it when it renews, and is registered again
      expect(await b.instances.renew(crashed)).toBe(false);
      expect(await b.instances.renew(crashed)).toBe(true);
      await b.instances.leave(crashed);
      await a.queue.leave(livePlace);
      await a.instances.leave(live);
      expect(await shared.rows(`SELECT status FROM turns WHERE id = '${live.id}-turn'`)).toEqual([{ status: "interrupted" }]);
    });

    it("reaps a run whose lease ran out by the database's clock, and turns of runs no longer registered", async ({ shared, a, b }) => {
      const stale: InstanceRun = { id: `stale:${randomUUID()}`, name: "stale", host: hostname(), pid: deadPid() };
      const fresh: InstanceRun = { id: `fresh:${randomUUID()}`, name: "fresh", host: hostname(), pid: process.pid };
      await a.instances.register(stale);
      const ref = place();
      await a.turns.start({ id: `${stale.id}-turn`, conversation: ref, userId: "u1", instance: stale.id });
      await a.turns.start({ id: `orphan-${ref.workspaceId}`, conversation: ref, userId: "u1", instance: "never-registered" });
      await new Promise((resolve) => setTimeout(resolve, 50));
      await b.instances.register(fresh);
      expect((await b.instances.othersOnHost(fresh)).map((other) => other.id)).toContain(stale.id);

      const reaped = await b.instances.reap({ leaseMs: 25 });
      expect(reaped.runs).toBeGreaterThanOrEqual(1);
      expect(await shared.rows(`SELECT id FROM instances WHERE id IN ('${stale.id}', '${fresh.id}') ORDER BY id`)).toEqual([{ id: fresh.id }]);
      expect(await shared.rows(`SELECT status FROM turns WHERE id IN ('${stale.id}-turn', 'orphan-${ref.workspaceId}')`)).toEqual([
        { status: "interrupted" },
        { status: "interrupted" },
      ]);
      await b.instances.leave(fresh);
    });
  },
);

await describeOnEngines(
  (engine) => `${engine.name} migrations`,
  0,
  (it, engine) => {
    it("are applied exactly once when several processes start together on a new database", async () => {
      const shared = await engine.openShared(4);
      try {
        const versions = await shared.rows(`SELECT version, COUNT(*) AS n FROM schema_migrations GROUP BY version ORDER BY version`);
        expect(versions.length).toBeGreaterThanOrEqual(1);
        expect(versions.every((row) => Number(row.n) === 1)).toBe(true);
        for (const store of shared.stores) await expect(store.ping()).resolves.toBeUndefined();
      } finally {
        await shared.close();
      }
    });
  },
);

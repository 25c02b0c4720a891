import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import type { Store } from "../../src/store/store.js";
import type { ConversationRef } from "../../src/store/types.js";
import { describeOnEngines, type SharedDatabase } from "./engines.js";

/**
 * Pruning on both engines: bot threads nobody used within the retention go, threads still in use
 * stay (Slack's, in their channel, and Discord's, channels of their own), claims and unused
 * thread seeds go past their cutoffs, each round deletes at most its limit.
 */
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

await describeOnEngines(
  (engine) => `pruning the ${engine.name} store`,
  2,
  (it) => {
    async function answeredTurn(store: Store, ref: ConversationRef, alsoIn?: ConversationRef): Promise<void> {
      const turnId = randomUUID();
      const conversation = await store.turns.start({ id: turnId, conversation: ref, userId: "u1", instance: "test" });
      await store.turns.finish({
        turnId,
        end: { status: "answered", outcome: "answer", iterations: 1, usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 } },
        steps: [],
        workspace: ref,
        exchange: { conversationId: conversation.id, question: { author: "alice", text: "q" }, answer: "a", alsoIn },
      });
    }

    const count = async (shared: SharedDatabase, sql: string) => Number((await shared.rows(sql))[0]!.n);

    it("prunes unused bot threads, old claims and unused thread seeds in bounded rounds; keeps threads still in use", async ({ shared, a, b }) => {
      const ws = `w-${randomUUID()}`;
      const slack = { platform: "slack", workspaceId: ws };
      const discord = { platform: "discord", workspaceId: ws };
      // Threads the bot opened: three nobody used, one Slack and one Discord thread people go on in.
      for (const threadId of ["idle-1", "idle-2", "idle-3", "busy"]) await a.threads.remember({ ...slack, channelId: "C1", threadId });
      await a.threads.remember({ ...discord, channelId: "parent", threadId: "busy-thread-channel" });
      await a.events.claim("slack", "C1:old");
      // A top-level question whose thread nobody followed up in, and one whose thread was.
      await answeredTurn(a, { ...slack, channelId: "C2" }, { ...slack, channelId: "C2", threadId: "never-followed" });
      await answeredTurn(a, { ...slack, channelId: "C2" }, { ...slack, channelId: "C2", threadId: "followed" });
      await tick();
      const cutoff = Date.now();
      await tick();
      await answeredTurn(b, { ...slack, channelId: "C1", threadId: "busy" });
      await answeredTurn(b, { ...discord, channelId: "busy-thread-channel" });
      await answeredTurn(b, { ...slack, channelId: "C2", threadId: "followed" });
      await b.events.claim("slack", "C1:new");

      // Rounds of at most one row of each kind, until nothing is left to prune.
      const rounds = [];
      for (let round = 0; round < 10; round++) {
        const counts = await (round % 2 ? a : b).retention.pruneRound({ threads: cutoff, claims: cutoff, spend: 0 }, 1);
        rounds.push(counts);
        if (counts.threads + counts.seeds + counts.claims + counts.spend === 0) break;
      }
      for (const counts of rounds) for (const n of Object.values(counts)) expect(n).toBeLessThanOrEqual(1);
      expect(rounds.reduce((sum, counts) => sum + counts.threads, 0)).toBe(3);
      expect(rounds.reduce((sum, counts) => sum + counts.seeds, 0)).toBe(1);
      expect(rounds.reduce((sum, counts) => sum + counts.claims, 0)).toBe(1);

      expect(await b.threads.scopeOf("slack", "C1", "idle-1")).toBeUndefined();
      expect(await b.threads.scopeOf("slack", "C1", "idle-3")).toBeUndefined();
      expect(await b.threads.scopeOf("slack", "C1", "busy")).toBe("thread");
      expect(await b.threads.scopeOf("discord", "parent", "busy-thread-channel")).toBe("thread");
      // the claim still dedupes a redelivery; the pruned one is gone
      expect(await a.events.claim("slack", "C1:new")).toBe(false);
      expect(await count(shared, `SELECT COUNT(*) AS n FROM processed_events WHERE event_id = 'C1:old'`)).toBe(0);
      // the unused seed's conversation is gone; the followed thread keeps its memory
      expect(await count(shared, `SELECT COUNT(*) AS n FROM conversations WHERE workspace_id = '${ws}' AND thread_id = 'never-followed'`)).toBe(0);
      expect((await a.conversations.window({ ...slack, channelId: "C2", threadId: "followed" }, 5, 10_000)).map((m) => m.text)).toEqual(["q", "a", "q", "a"]);

      // Threads kept are checked again only once their last turn is past the cutoff.
      expect(await a.retention.pruneRound({ threads: cutoff, claims: cutoff, spend: 0 }, 100)).toEqual({ threads: 0, seeds: 0, claims: 0, spend: 0 });
      await tick();
      const later = Date.now() + 1;
      await a.retention.pruneRound({ threads: later, claims: cutoff, spend: 0 }, 100);
      expect(await b.threads.scopeOf("slack", "C1", "busy")).toBeUndefined();
      expect(await b.threads.scopeOf("discord", "parent", "busy-thread-channel")).toBeUndefined();
    });

    it("prunes budgets' spend and alerts of windows that started before the cutoff, in bounded rounds, and keeps the current ones", async ({ a, b }) => {
      const key = (scope: string) => JSON.stringify(["test", `w-${randomUUID()}`, scope, ""]);
      const [old, current] = [key("workspace"), key("workspace")];
      const [then, now] = [Date.UTC(2026, 0, 1), Date.UTC(2026, 11, 1)];
      for (const [budget, windowStart] of [
        [old, then],
        [current, now],
      ] as const) {
        const line = { key: budget, windowStart, limit: 1_000_000, promptCost: 10, tokenCost: 1 };
        const reservation = await a.budgets.reserve({ lines: [line], ceiling: 100, floor: 1, now: Date.now(), holdMs: 60_000 });
        if (!reservation.granted) throw new Error("the budget refused");
        await b.budgets.settle([{ key: budget, windowStart, amount: 50, held: reservation.held[0]! }]);
        expect(await a.budgets.claimAlert(budget, windowStart, 80, Date.now())).toBe(true);
      }
      const cutoff = Date.UTC(2026, 6, 1);
      const rounds = [];
      for (let round = 0; round < 10; round++) {
        const counts = await (round % 2 ? a : b).retention.pruneRound({ threads: 0, claims: 0, spend: cutoff }, 1);
        rounds.push(counts.spend);
        if (counts.spend === 0) break;
      }
      // One spend row and one alert row, at most one of each per round.
      expect(rounds.reduce((sum, n) => sum + n, 0)).toBe(2);
      expect(Math.max(...rounds)).toBeLessThanOrEqual(2);
      expect(await a.budgets.spent([{ key: old, windowStart: then }])).toEqual([0]);
      expect(await a.budgets.spent([{ key: current, windowStart: now }])).toEqual([50]);
      // The pruned window's alert may be claimed again; the current one's not.
      expect(await b.budgets.claimAlert(old, then, 80, Date.now())).toBe(true);
      expect(await b.budgets.claimAlert(current, now, 80, Date.now())).toBe(false);
    });
  },
);

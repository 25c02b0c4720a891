import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import type { Store } from "../../src/store/store.js";
import type { Conversation, ConversationRef } from "../../src/store/types.js";
import { describeOnEngines } from "./engines.js";

/**
 * Conversation summaries on both engines, with two stores on one database as two processes: one
 * update per conversation at a time (a lease), a write that read an older version changes nothing
 * (no lost update), memory clear starts them over, and the messages that left the window are the
 * ones past the newest `keep` messages and not yet covered.
 */
await describeOnEngines(
  (engine) => `conversation summaries on the ${engine.name} store`,
  2,
  (it) => {
    async function exchange(store: Store, ref: ConversationRef, n: number): Promise<Conversation> {
      const turnId = randomUUID();
      const conversation = await store.turns.start({ id: turnId, conversation: ref, userId: "u1", instance: "test" });
      await store.turns.finish({
        turnId,
        end: { status: "answered", outcome: "answer", iterations: 1, usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 } },
        steps: [],
        workspace: ref,
        exchange: { conversationId: conversation.id, question: { author: `speaker ${n % 3}`, text: `q${n}`, sourceId: `m${n}` }, answer: `a${n}` },
      });
      return conversation;
    }

    const update = (summary: string, coveredTo: number) => ({ summary, identifiers: [], coveredTo, coversFrom: 1, coversUntil: 2, updatedAt: 3 });
    /** A summary call's usage, recorded with the outcome it led to (save or failed). */
    const usage = (conversationId: number, ref: ConversationRef, promptTokens = 0, completionTokens = 0) => ({
      conversationId,
      workspace: ref,
      channelId: ref.channelId,
      model: "m",
      ok: true,
      promptTokens,
      completionTokens,
      durationMs: 5,
    });

    it("lets one process update a conversation's summary at a time, and never loses an update", async ({ a, b }) => {
      const ref = { platform: "test", workspaceId: `w-${randomUUID()}`, channelId: "c1" };
      let conversation!: Conversation;
      for (let n = 1; n <= 4; n++) conversation = await exchange(a, ref, n);
      const id = conversation.id;

      // Both processes read version 0; only one takes the update.
      const [readA, readB] = await Promise.all([a.summaries.get(id), b.summaries.get(id)]);
      expect(readA.version).toBe(0);
      expect(readB.version).toBe(0);
      const now = Date.now();
      const claims = await Promise.all([a.summaries.claim(id, 0, now, 60_000), b.summaries.claim(id, 0, now, 60_000)]);
      expect(claims.filter(Boolean)).toHaveLength(1);

      // Whatever the lease says, a write from a stale read changes nothing: of two writes from version 0, one wins.
      const saves = await Promise.all([a.summaries.save(id, 0, update("by A", 2), usage(id, ref)), b.summaries.save(id, 0, update("by B", 2), usage(id, ref))]);
      expect(saves.filter(Boolean)).toHaveLength(1);
      const after = await b.summaries.get(id);
      expect(after.version).toBe(1);
      expect(after.summary).toBe(saves[0] ? "by A" : "by B");

      // The next update builds on version 1; a failed attempt counts and bumps it too.
      expect(await b.summaries.claim(id, 1, Date.now(), 60_000)).toBe(true);
      expect(await a.summaries.claim(id, 1, Date.now(), 60_000)).toBe(false);
      expect(await b.summaries.failed(id, 1, 12_345, usage(id, ref))).toBe(true);
      expect(await a.summaries.save(id, 1, update("stale", 4), usage(id, ref))).toBe(false);
      const failed = await a.summaries.get(id);
      expect(failed).toMatchObject({ version: 2, failures: 1, retryAt: 12_345, summary: after.summary, coveredTo: 2 });
    });

    it("returns the messages that left the window and are not covered, oldest first, with their sources", async ({ a, b }) => {
      const ref = { platform: "test", workspaceId: `w-${randomUUID()}`, channelId: "c1" };
      let conversation!: Conversation;
      for (let n = 1; n <= 5; n++) conversation = await exchange(b, ref, n);
      // A window of two exchanges keeps the newest four messages; six left it.
      const left = await a.summaries.dropped(conversation, 0, 4, 100);
      expect(left.map((m) => [m.role, m.author, m.text, m.sourceId])).toEqual([
        ["user", "speaker 1", "q1", "m1"],
        ["assistant", null, "a1", null],
        ["user", "speaker 2", "q2", "m2"],
        ["assistant", null, "a2", null],
        ["user", "speaker 0", "q3", "m3"],
        ["assistant", null, "a3", null],
      ]);
      expect(left[0]!.createdAt).toBeGreaterThan(0);
      // Covered up to the second answer: the third exchange alone; a window bigger than the conversation drops nothing.
      expect((await a.summaries.dropped(conversation, left[3]!.id, 4, 100)).map((m) => m.text)).toEqual(["q3", "a3"]);
      expect(await a.summaries.dropped(conversation, 0, 20, 100)).toEqual([]);
    });

    it("starts the summary over on memory clear, tells the note once, and records summary usage of its own kind", async ({ a, b }) => {
      const ref = { platform: "test", workspaceId: `w-${randomUUID()}`, channelId: "c1" };
      const conversation = await exchange(a, ref, 1);
      const id = conversation.id;
      expect(await a.summaries.claim(id, 0, Date.now(), 60_000)).toBe(true);
      expect(await a.summaries.save(id, 0, update("kept", 2), usage(id, ref, 30, 12))).toBe(true);
      const notes = await Promise.all([a.summaries.markNoted(id), b.summaries.markNoted(id)]);
      expect(notes.filter(Boolean)).toHaveLength(1);

      await b.conversations.clear(ref);
      const cleared = await b.conversations.open(ref);
      await b.summaries.reset(id, cleared.windowStart);
      const reset = await a.summaries.get(id);
      expect(reset).toMatchObject({ version: 2, summary: "", identifiers: [], coveredTo: cleared.windowStart, noted: true });
      // A write begun before the clear cannot bring the old summary back; its call's tokens count all the same.
      expect(await a.summaries.save(id, 1, update("from before the clear", 2), usage(id, ref, 5, 2))).toBe(false);
      expect(await b.usage.tokensToday(ref)).toBe(49);
      const report = await b.usageReports.summary(ref, 0, 10);
      expect(report.byKind.map((row) => [row.key, Number(row.turns), Number(row.promptTokens)])).toEqual([
        ["summary", 2, 35],
        ["turn", 1, 0],
      ]);
      // No person spent the summary's tokens.
      expect(report.byUser.map((row) => row.key)).toEqual(["u1"]);
    });
  },
);

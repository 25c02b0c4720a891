import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import type { Store } from "../../src/store/store.js";
import type { ConversationRef, WorkspaceRef } from "../../src/store/types.js";
import { describeOnEngines } from "./engines.js";

/**
 * 👍 / 👎 on answers, on both engines with two stores on one database standing for two processes:
 * one vote per person per answer (a second press changes it), a press counts only on a turn of
 * its own workspace, and usage reports count the votes by model and by channel.
 */
await describeOnEngines(
  (engine) => `the ${engine.name} store's feedback`,
  2,
  (it) => {
    const workspace = (): WorkspaceRef => ({ platform: "test", workspaceId: `w-${randomUUID()}` });
    const answered = async (store: Store, where: ConversationRef, model: string): Promise<string> => {
      const id = randomUUID();
      await store.turns.start({ id, conversation: where, userId: "asker", instance: "test", context: { model, channelId: where.channelId } });
      await store.turns.finish({
        turnId: id,
        end: { status: "answered", outcome: "answer", iterations: 1, usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 } },
        steps: [],
        workspace: where,
      });
      return id;
    };

    it("records one vote per person per answer: the first press, the same again, a change, and another person's", async ({ shared, a, b }) => {
      const ws = workspace();
      const turnId = await answered(a, { ...ws, channelId: "c1" }, "small");
      const press = { ...ws, turnId, userId: "ann" };
      expect(await a.feedback.vote({ ...press, vote: "up" })).toBe("recorded");
      expect(await b.feedback.vote({ ...press, vote: "up" })).toBe("unchanged");
      expect(await b.feedback.vote({ ...press, vote: "down" })).toBe("changed");
      expect(await a.feedback.vote({ ...press, userId: "bob", vote: "down" })).toBe("recorded");

      const rows = await shared.rows(`SELECT user_id, vote, changes FROM turn_feedback WHERE turn_id = '${turnId}' ORDER BY user_id`);
      expect(rows.map((row) => [row.user_id, row.vote, Number(row.changes)])).toEqual([
        ["ann", "down", 1],
        ["bob", "down", 0],
      ]);
    });

    it("counts a press only on a turn of the workspace it came from", async ({ shared, a }) => {
      const mine = workspace();
      const theirs = workspace();
      const turnId = await answered(a, { ...theirs, channelId: "c1" }, "small");
      expect(await a.feedback.vote({ ...mine, turnId, userId: "ann", vote: "up" })).toBe("unknown");
      expect(await a.feedback.vote({ ...mine, turnId: "no-such-turn", userId: "ann", vote: "up" })).toBe("unknown");
      expect(await shared.rows(`SELECT * FROM turn_feedback WHERE turn_id = '${turnId}'`)).toEqual([]);
    });

    it("reports 👍 and 👎 by model and by channel with the usage of the turns voted on", async ({ a, b }) => {
      const ws = workspace();
      const small = await answered(a, { ...ws, channelId: "c1" }, "small");
      const threaded = await answered(b, { ...ws, channelId: "c1", threadId: "t1" }, "big");
      const other = await answered(b, { ...ws, channelId: "c2" }, "small");
      await answered(a, { ...ws, channelId: "c3" }, "big"); // no votes: no row
      await a.feedback.vote({ ...ws, turnId: small, userId: "ann", vote: "up" });
      await b.feedback.vote({ ...ws, turnId: small, userId: "bob", vote: "up" });
      await b.feedback.vote({ ...ws, turnId: threaded, userId: "ann", vote: "down" });
      await a.feedback.vote({ ...ws, turnId: other, userId: "ann", vote: "down" });
      await a.feedback.vote({ ...ws, turnId: other, userId: "ann", vote: "up" });

      const { feedback } = await b.usageReports.summary(ws, 0, 10);
      expect(feedback.byModel).toEqual([
        { key: "small", up: 3, down: 0 },
        { key: "big", up: 0, down: 1 },
      ]);
      expect(feedback.byChannel).toEqual([
        { key: "c1", up: 2, down: 1 },
        { key: "c2", up: 1, down: 0 },
      ]);
      // Another workspace sees none of them; a period after the turns has none either.
      expect((await a.usageReports.summary(workspace(), 0, 10)).feedback).toEqual({ byModel: [], byChannel: [] });
      expect((await a.usageReports.summary(ws, Math.floor(Date.now() / 86_400_000) + 1, 10)).feedback).toEqual({ byModel: [], byChannel: [] });
    });
  },
);

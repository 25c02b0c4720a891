import { randomUUID } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import { expect } from "vitest";
import type { Store } from "../../src/store/store.js";
import type { ConversationRef } from "../../src/store/types.js";
import { describeOnEngines } from "./engines.js";

/**
 * The store contract, continued: approvals, per-channel settings, which tools need approval,
 * usage reports, and the files' descriptions kept with a question; the same for both engines,
 * with two stores on one database standing for two processes.
 */
async function waitFor(condition: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

await describeOnEngines(
  (engine) => `the ${engine.name} store's admin controls`,
  2,
  (it) => {
    const workspace = () => ({ platform: "test", workspaceId: `w-${randomUUID()}` });

    it("records a request for approval and its one decision; a request whose process stops expires", async ({ a, b }) => {
      const ws = workspace();
      const request = {
        platform: ws.platform,
        workspaceId: ws.workspaceId,
        channelId: "c1",
        turnId: "t1",
        tool: "shred",
        args: { file: "notes.txt" },
        askedBy: "u1",
        requestedAt: 1_000,
      };
      await a.approvals.create({ ...request, id: `${ws.workspaceId}-1`, instance: "live" });
      expect(await b.approvals.get(`${ws.workspaceId}-1`)).toEqual({
        ...request,
        id: `${ws.workspaceId}-1`,
        instance: "live",
        status: "pending",
        decidedBy: undefined,
        decidedAt: undefined,
      });
      expect(await b.approvals.close(`${ws.workspaceId}-1`, "approved", { by: "admin", via: "console", at: 2_000 })).toBe(true);
      expect(await a.approvals.close(`${ws.workspaceId}-1`, "denied", { by: "someone else" })).toBe(false);
      expect(await a.approvals.get(`${ws.workspaceId}-1`)).toMatchObject({ status: "approved", decidedBy: "admin", decidedAt: 2_000, decidedVia: "console" });

      const run = { id: `run-${randomUUID()}`, name: "run", host: "h", pid: 1 };
      await a.instances.register(run);
      await a.approvals.create({ ...request, id: `${ws.workspaceId}-2`, instance: run.id });
      await a.instances.leave(run);
      expect(await b.approvals.get(`${ws.workspaceId}-2`)).toMatchObject({ status: "expired" });
      expect(await b.approvals.get("no-such-request")).toBeUndefined();
    });

    it("applies a channel's settings and tool switches made through one process on the other, and audits them", async ({ shared, a, b }) => {
      const channel = { ...workspace(), channelId: "c9" };
      expect(await b.channelSettings.get(channel)).toEqual({});
      await a.channelSettings.set(channel, "prompt", "Only here.", "boss");
      await a.channelSettings.set(channel, "memoryWindow", 3, "boss");
      await a.channelSettings.setTool(channel, "calculator", false, "boss");
      const expected = { prompt: "Only here.", memoryWindow: 3, tools: { calculator: false } };
      await waitFor(async () => isDeepStrictEqual(await b.channelSettings.get(channel), expected), "the other process to see the channel's settings");
      expect(await b.channelSettings.get({ ...channel, channelId: "c10" })).toEqual({});

      await b.channelSettings.setTool(channel, "calculator", undefined, "boss");
      await b.channelSettings.set(channel, "memoryWindow", undefined, "boss");
      await waitFor(async () => (await a.channelSettings.get(channel)).memoryWindow === undefined, "the reset to reach the first process");
      expect(await a.channelSettings.get(channel)).toEqual({ prompt: "Only here." });
      await a.channelSettings.reset(channel, "boss");
      await waitFor(async () => (await b.channelSettings.get(channel)).prompt === undefined, "the channel's reset");

      const audit = await shared.rows(`SELECT key, value_json AS value FROM settings_changes WHERE workspace_id = '${channel.workspaceId}' ORDER BY id`);
      expect(audit).toEqual([
        { key: "channel:c9:prompt", value: '"Only here."' },
        { key: "channel:c9:memoryWindow", value: "3" },
        { key: "channel:c9:tool:calculator", value: "false" },
        { key: "channel:c9:tool:calculator", value: "null" },
        { key: "channel:c9:memoryWindow", value: "null" },
        { key: "channel:c9:*", value: "null" },
      ]);
    });

    it("applies which tools need approval across processes", async ({ a, b }) => {
      const ws = workspace();
      expect((await b.toolApprovals.overrides(ws)).size).toBe(0);
      await a.toolApprovals.set(ws, "shred", true, "boss");
      await waitFor(async () => (await b.toolApprovals.overrides(ws)).get("shred")?.required === true, "the other process to see the change");
      expect((await b.toolApprovals.overrides(ws)).get("shred")).toMatchObject({ required: true, changedBy: "boss" });
      await b.toolApprovals.set(ws, "shred", false, "boss");
      await waitFor(async () => (await a.toolApprovals.overrides(ws)).get("shred")?.required === false, "the first process to see it back");
    });

    it("reports turns and tokens by user, channel and model, and one user's tokens, for what both processes recorded", async ({ a, b }) => {
      const ws = workspace();
      const turn = async (store: Store, userId: string, where: ConversationRef, model: string, tokens: [number, number]) => {
        const id = randomUUID();
        await store.turns.start({ id, conversation: where, userId, instance: "test", context: { model, channelId: where.channelId } });
        await store.turns.finish({
          turnId: id,
          end: {
            status: "answered",
            outcome: "answer",
            iterations: 1,
            usage: { promptTokens: tokens[0], completionTokens: tokens[1], totalTokens: tokens[0] + tokens[1] },
          },
          steps: [],
          workspace: ws,
        });
      };
      await turn(a, "ann", { ...ws, channelId: "c1" }, "small", [100, 10]);
      await turn(b, "ann", { ...ws, channelId: "c1", threadId: "t1" }, "big", [300, 30]);
      await turn(b, "bob", { ...ws, channelId: "c2" }, "small", [50, 5]);

      const summary = await a.usageReports.summary(ws, 0, 10);
      expect(summary.total).toEqual({ turns: 3, promptTokens: 450, completionTokens: 45 });
      expect(summary.byUser).toEqual([
        { key: "ann", turns: 2, promptTokens: 400, completionTokens: 40 },
        { key: "bob", turns: 1, promptTokens: 50, completionTokens: 5 },
      ]);
      expect(summary.byChannel.map((row) => [row.key, row.turns])).toEqual([
        ["c1", 2],
        ["c2", 1],
      ]);
      expect(summary.byModel.map((row) => [row.key, row.turns])).toEqual([
        ["big", 1],
        ["small", 2],
      ]);
      expect(await b.usageReports.userTokensSince(ws, "ann", 0)).toBe(440);
      expect(await b.usageReports.userTokensSince(ws, "ann", Date.now() + 60_000)).toBe(0);
      expect(await b.usageReports.activeWorkspaces(0)).toContainEqual(ws);
    });

    it("keeps a description of a question's files with it, never more", async ({ a, b }) => {
      const ref = { ...workspace(), channelId: "c1" };
      const turnId = randomUUID();
      const conversation = await a.turns.start({ id: turnId, conversation: ref, userId: "u1", instance: "test" });
      const files = [{ name: "ci.log", type: "text/plain", size: 18 }];
      await a.turns.finish({
        turnId,
        end: { status: "answered", outcome: "answer", iterations: 1, usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 } },
        steps: [],
        workspace: ref,
        exchange: { conversationId: conversation.id, question: { author: "alice", text: "why?", attachments: files }, answer: "because" },
      });
      expect(await b.conversations.window(ref, 5, 10_000)).toEqual([
        { role: "user", author: "alice", text: "why?", attachments: files },
        { role: "assistant", author: null, text: "because" },
      ]);
    });
  },
);

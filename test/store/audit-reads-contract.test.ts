import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import type { ConversationRef } from "../../src/store/types.js";
import type { Store } from "../../src/store/store.js";
import { describeOnEngines } from "./engines.js";

/**
 * The console's reads of the audit trail (src/store/audit-store.ts), the same on both engines:
 * turns filtered and paged newest first, a turn with its exchange, steps and approvals, what runs
 * now, the settings audit's version; and the usage reports' figures by day and model.
 */
const DAY = 24 * 60 * 60 * 1000;

await describeOnEngines(
  (engine) => `the ${engine.name} store's audit reads`,
  2,
  (it) => {
    const place = (channelId = "c1"): ConversationRef => ({ platform: "test", workspaceId: `w-${randomUUID()}`, channelId });

    async function turn(
      store: Store,
      ref: ConversationRef,
      options: { user?: string; model?: string; tools?: string[]; failed?: boolean; tokens?: [number, number] } = {},
    ) {
      const id = randomUUID();
      const conversation = await store.turns.start({
        id,
        conversation: ref,
        userId: options.user ?? "u1",
        instance: "test",
        context: { model: options.model ?? "m1", channelId: ref.channelId },
      });
      const [input, output] = options.tokens ?? [10, 2];
      await store.turns.finish({
        turnId: id,
        end: options.failed
          ? {
              status: "failed",
              outcome: "llm_error",
              iterations: 1,
              usage: { promptTokens: input, completionTokens: output, totalTokens: input + output },
              error: "boom",
            }
          : { status: "answered", outcome: "answer", iterations: 2, usage: { promptTokens: input, completionTokens: output, totalTokens: input + output } },
        steps: (options.tools ?? []).map((tool, i) => ({ seq: i + 1, tool, input: { n: i }, startedAt: 1_000 + i, output: `out ${i}`, durationMs: 5 })),
        workspace: ref,
        exchange: options.failed
          ? undefined
          : { conversationId: conversation.id, question: { author: "alice", text: `question ${id}` }, answer: `answer ${id}` },
      });
      return id;
    }

    it("lists a workspace's turns newest first, filtered, in pages that neither skip nor repeat", async ({ a, b }) => {
      const ref = place();
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push(await turn(a, ref, { user: i % 2 ? "u2" : "u1", tools: i === 3 ? ["calculator"] : [] }));
      await turn(a, { ...ref, channelId: "c2" }, { failed: true });
      await turn(a, place());

      const workspace = { platform: ref.platform, workspaceId: ref.workspaceId };
      const all = await b.audit.turns({ workspace, limit: 50 });
      expect(all).toHaveLength(6);
      expect(all.every((row, i) => i === 0 || row.startedAt <= all[i - 1]!.startedAt)).toBe(true);

      const first = await b.audit.turns({ workspace, channelId: "c1", limit: 3 });
      const last = first.at(-1)!;
      const second = await b.audit.turns({ workspace, channelId: "c1", limit: 3, after: { startedAt: last.startedAt, id: last.id } });
      expect(new Set([...first, ...second].map((row) => row.id))).toEqual(new Set(ids));
      expect(first.length + second.length).toBe(5);

      expect((await b.audit.turns({ workspace, userId: "u2", limit: 50 })).map((row) => row.userId)).toEqual(["u2", "u2"]);
      expect((await b.audit.turns({ workspace, tool: "calculator", limit: 50 })).map((row) => row.id)).toEqual([ids[3]]);
      const failed = await b.audit.turns({ workspace, outcome: "failed", limit: 50 });
      expect(failed.map((row) => [row.channelId, row.outcome, row.error])).toEqual([["c2", "llm_error", "boom"]]);
      // an outcome word rather than a status
      expect((await b.audit.turns({ workspace, outcome: "llm_error", limit: 50 })).map((row) => row.id)).toEqual(failed.map((row) => row.id));
      expect(await b.audit.turns({ workspace, outcome: "answered", limit: 50 })).toHaveLength(5);
      expect(await b.audit.turns({ workspace, from: Date.now() + DAY, limit: 50 })).toEqual([]);
    });

    it("reads one turn with its question, answer, steps in order and approvals", async ({ a, b }) => {
      const ref = place();
      const id = await turn(a, ref, { tools: ["get_time", "calculator"], tokens: [30, 7] });
      await a.approvals.create({
        id: `${id}-a`,
        platform: ref.platform,
        workspaceId: ref.workspaceId,
        channelId: ref.channelId,
        turnId: id,
        tool: "calculator",
        args: { n: 1 },
        askedBy: "u1",
        requestedAt: 2_000,
        instance: "test",
      });
      await a.approvals.close(`${id}-a`, "approved", { by: "admin-1", via: "discord", at: 3_000 });

      const detail = await b.audit.turn(id);
      expect(detail).toMatchObject({
        id,
        workspaceId: ref.workspaceId,
        channelId: "c1",
        status: "answered",
        model: "m1",
        promptTokens: 30,
        completionTokens: 7,
        question: `question ${id}`,
        answer: `answer ${id}`,
      });
      expect(detail!.steps.map((step) => [step.seq, step.tool, step.input, step.output])).toEqual([
        [1, "get_time", '{"n":0}', "out 0"],
        [2, "calculator", '{"n":1}', "out 1"],
      ]);
      expect(detail!.approvals).toMatchObject([{ tool: "calculator", status: "approved", decidedBy: "admin-1", decidedAt: 3_000, decidedVia: "discord" }]);
      expect(await b.audit.approvals({ platform: ref.platform, workspaceId: ref.workspaceId }, false, 10)).toHaveLength(1);
      expect(await b.audit.approvals({ platform: ref.platform, workspaceId: ref.workspaceId }, true, 10)).toEqual([]);
      expect(await b.audit.turn("no such turn")).toBeUndefined();
    });

    it("keeps a turn's model calls, its trace id and link with its closing, and reads them with its votes", async ({ a, b }) => {
      const ref = place();
      const id = randomUUID();
      await a.turns.start({ id, conversation: ref, userId: "u1", instance: "test", context: { model: "m1", channelId: ref.channelId } });
      const call = { model: "m1", provider: "openai", purpose: "turn", outcome: "ok", startedAt: 5_000, afterStep: 0 } as const;
      await a.turns.finish({
        turnId: id,
        end: { status: "answered", outcome: "answer", iterations: 1, usage: { promptTokens: 40, completionTokens: 9, totalTokens: 49 } },
        steps: [{ seq: 1, tool: "calculator", input: {}, startedAt: 5_100, output: "2", durationMs: 3 }],
        modelCalls: [
          { ...call, purpose: "turn", retry: false, outcome: "rate_limited", durationMs: 12.4 },
          { ...call, retry: true, startedAt: 5_020, durationMs: 80.6, firstTokenMs: 30.2, usage: { promptTokens: 25, completionTokens: 5, totalTokens: 30 } },
          {
            ...call,
            purpose: "side_question",
            retry: false,
            afterStep: 1,
            startedAt: 5_110,
            durationMs: 7,
            usage: { promptTokens: 15, completionTokens: 4, totalTokens: 19 },
          },
        ],
        traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
        link: "https://discord.com/channels/g1/c1/m1",
        workspace: ref,
      });
      await a.feedback.vote({ platform: ref.platform, workspaceId: ref.workspaceId, turnId: id, userId: "bob", vote: "up", at: 9_000 });

      const detail = await b.audit.turn(id);
      expect(detail).toMatchObject({ traceId: "4bf92f3577b34da6a3ce929d0e0e4736", link: "https://discord.com/channels/g1/c1/m1" });
      expect(detail!.modelCalls).toEqual([
        { seq: 1, model: "m1", provider: "openai", purpose: "turn", retry: false, outcome: "rate_limited", startedAt: 5_000, durationMs: 12, afterStep: 0 },
        {
          ...{ seq: 2, model: "m1", provider: "openai", purpose: "turn", retry: true, outcome: "ok", startedAt: 5_020, durationMs: 81, firstTokenMs: 30 },
          ...{ promptTokens: 25, completionTokens: 5, afterStep: 0 },
        },
        {
          ...{ seq: 3, model: "m1", provider: "openai", purpose: "side_question", retry: false, outcome: "ok", startedAt: 5_110, durationMs: 7 },
          ...{ promptTokens: 15, completionTokens: 4, afterStep: 1 },
        },
      ]);
      expect(detail!.feedback).toEqual([{ userId: "bob", vote: "up", votedAt: 9_000 }]);
      // A turn closed without them reads as none.
      const plain = await b.audit.turn(await turn(a, ref));
      expect(plain).toMatchObject({ modelCalls: [], feedback: [] });
      expect(plain).not.toHaveProperty("traceId");
    });

    it("sums tokens by day and model, counts the failures, knows the workspace and its channels", async ({ a, b }) => {
      const ref = place();
      await turn(a, ref, { model: "m1", tokens: [10, 1] });
      await turn(a, ref, { model: "m1", tokens: [20, 2] });
      await turn(a, { ...ref, channelId: "c9" }, { model: "m2", tokens: [5, 5], failed: true });
      const workspace = { platform: ref.platform, workspaceId: ref.workspaceId };
      const today = Math.floor(Date.now() / DAY);
      expect(await b.usageReports.daily(workspace, today)).toEqual([
        { day: today, model: "m1", turns: 2, promptTokens: 30, completionTokens: 3 },
        { day: today, model: "m2", turns: 1, promptTokens: 5, completionTokens: 5 },
      ]);
      expect((await b.audit.activity(Date.now() - 60_000)).failed).toBeGreaterThanOrEqual(1);
      expect(await b.audit.workspaces(10_000)).toContainEqual(workspace);
      expect(await b.audit.channels(workspace, 10)).toEqual(["c1", "c9"]);
      expect(await b.audit.sizeBytes()).toBeGreaterThan(0);
    });

    it("versions a workspace's settings by its audit, and says what changed since a version", async ({ a, b }) => {
      const ref = place();
      const version = await b.audit.settingsVersion(ref);
      expect(version).toBe(0);
      await a.workspaceSettings.set(ref, "systemPrompt", "be brief", "admin-1");
      await a.toolSettings.set(ref, "calculator", false, "admin-2");
      const after = await b.audit.settingsVersion(ref);
      expect(after).toBeGreaterThan(version);
      expect((await b.audit.changesSince(ref, version, 10)).map((change) => [change.key, change.changedBy])).toEqual([
        ["systemPrompt", "admin-1"],
        ["tool:calculator", "admin-2"],
      ]);
      expect(await b.audit.changesSince(ref, after, 10)).toEqual([]);
    });
  },
);

import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import type { Store } from "../../src/store/store.js";
import type { ConversationRef } from "../../src/store/types.js";
import { describeOnEngines } from "./engines.js";

/**
 * The store contract: what the core relies on, the same for SQLite and PostgreSQL. Two stores on
 * one database stand for two bot processes. The PostgreSQL half reports itself as not run when no
 * server answers (and fails under REQUIRE_POSTGRES=1, as in CI).
 */
const usage = (totalTokens: number) => ({ promptTokens: totalTokens, completionTokens: 0, totalTokens });

async function waitFor(condition: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

await describeOnEngines(
  (engine) => `the ${engine.name} store`,
  2,
  (it) => {
    /** A conversation no other test uses. */
    const place = (): ConversationRef => ({ platform: "test", workspaceId: `w-${randomUUID()}`, channelId: "c1" });

    async function answeredTurn(
      store: Store,
      ref: ConversationRef,
      question: string,
      answer: string,
      extra: { alsoIn?: ConversationRef; tokens?: number } = {},
    ) {
      const turnId = randomUUID();
      const conversation = await store.turns.start({ id: turnId, conversation: ref, userId: "u1", instance: "test" });
      await store.turns.finish({
        turnId,
        end: { status: "answered", outcome: "answer", iterations: 1, usage: usage(extra.tokens ?? 0) },
        steps: [],
        workspace: ref,
        exchange: { conversationId: conversation.id, question: { author: "alice", text: question }, answer, alsoIn: extra.alsoIn },
      });
      return turnId;
    }

    it("finds a conversation by its place, creating it once, whichever process asks", async ({ a, b }) => {
      const ref = place();
      const [first, second] = await Promise.all([a.conversations.open(ref), b.conversations.open(ref)]);
      expect(first.id).toBe(second.id);
      expect((await a.conversations.open({ ...ref, threadId: "t1" })).id).not.toBe(first.id);
    });

    it("reads the memory window oldest first, the newest exchanges within the token budget, and forgets it on clear", async ({ a, b }) => {
      const ref = place();
      for (let i = 1; i <= 4; i++) await answeredTurn(i % 2 ? a : b, ref, `question ${i}`, `answer ${i}`);
      const texts = async (store: Store, exchanges: number, budget = 10_000) =>
        (await store.conversations.window(ref, exchanges, budget)).map((m) => `${m.role}: ${m.text}`);
      expect(await texts(a, 2)).toEqual(["user: question 3", "assistant: answer 3", "user: question 4", "assistant: answer 4"]);
      expect(await b.conversations.window(await b.conversations.open(ref), 1, 10_000)).toEqual([
        { role: "user", author: "alice", text: "question 4" },
        { role: "assistant", author: null, text: "answer 4" },
      ]);
      // about four characters a token: one exchange of 20 characters fits a budget of 6, two do not
      expect(await texts(a, 5, 6)).toEqual(["user: question 4", "assistant: answer 4"]);

      await b.conversations.clear(ref);
      expect(await a.conversations.window(ref, 5, 10_000)).toEqual([]);
      await answeredTurn(a, ref, "after the clear", "fresh");
      expect(await texts(b, 5)).toEqual(["user: after the clear", "assistant: fresh"]);
    });

    it("closes a turn as one unit: steps, exchange (also in the thread opened for it), usage and outcome", async ({ shared, a, b }) => {
      const ref = place();
      const thread = { ...ref, channelId: "c1", threadId: "thread-1" };
      const turnId = randomUUID();
      const conversation = await a.turns.start({ id: turnId, conversation: ref, userId: "u1", instance: "test" });
      expect(await shared.rows(`SELECT status FROM turns WHERE id = '${turnId}'`)).toEqual([{ status: "running" }]);
      await a.turns.finish({
        turnId,
        end: { status: "answered", outcome: "answer", iterations: 2, usage: { promptTokens: 40, completionTokens: 2, totalTokens: 42 } },
        steps: [
          { seq: 1, tool: "calculator", input: { expression: "6*7" }, startedAt: 1, output: "42", durationMs: 3, approvalWaitMs: 3_694 },
          { seq: 2, tool: "x".repeat(500), input: "y".repeat(20_000), startedAt: 2, error: "boom", durationMs: 1 },
        ],
        workspace: ref,
        exchange: { conversationId: conversation.id, question: { author: "alice", text: "6*7?" }, answer: "42", alsoIn: thread },
      });

      const [turn] = await shared.rows(`SELECT status, outcome, iterations, total_tokens AS tokens FROM turns WHERE id = '${turnId}'`);
      expect(turn).toEqual({ status: "answered", outcome: "answer", iterations: 2, tokens: 42 });
      const steps = await shared.rows(`SELECT seq, tool, input, output, error FROM turn_steps WHERE turn_id = '${turnId}' ORDER BY seq`);
      expect(steps[0]).toEqual({ seq: 1, tool: "calculator", input: '{"expression":"6*7"}', output: "42", error: null });
      // the tool's own time and the wait for approval before it, apart; a step that needed none has no wait
      const times = await shared.rows(`SELECT duration_ms AS ran, approval_wait_ms AS waited FROM turn_steps WHERE turn_id = '${turnId}' ORDER BY seq`);
      expect(times.map(({ ran, waited }) => [Number(ran), waited === null ? null : Number(waited)])).toEqual([
        [3, 3_694],
        [1, null],
      ]);
      // capped, whatever the caller passes
      expect(String(steps[1]!.tool).length).toBeLessThan(500);
      expect(String(steps[1]!.input).length).toBeLessThan(10_000);
      expect(await b.conversations.window(thread, 5, 10_000)).toEqual([
        { role: "user", author: "alice", text: "6*7?" },
        { role: "assistant", author: null, text: "42" },
      ]);
      expect(await b.usage.tokensToday(ref)).toBe(42);
    });

    it("stores a top-level question's exchange once; the thread opened for it starts with it when someone follows up there", async ({ shared, a, b }) => {
      const ref = place();
      const thread = { ...ref, threadId: "thread-lazy" };
      const count = async (sql: string) => Number((await shared.rows(sql))[0]!.n);
      const messagesOf = () =>
        count(`SELECT COUNT(*) AS n FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE c.workspace_id = '${ref.workspaceId}'`);
      await answeredTurn(a, ref, "6*7?", "42", { alsoIn: thread });
      // stored once: nothing copied into the thread, which may never get a follow-up
      expect(await messagesOf()).toBe(2);

      // the first follow-up (through the other process) continues from the exchange, which is copied once
      const followUp = randomUUID();
      const conversation = await b.turns.start({ id: followUp, conversation: thread, userId: "u1", instance: "test" });
      expect(await b.conversations.window(conversation, 5, 10_000)).toEqual([
        { role: "user", author: "alice", text: "6*7?" },
        { role: "assistant", author: null, text: "42" },
      ]);
      await a.turns.start({ id: randomUUID(), conversation: thread, userId: "u1", instance: "test" });
      expect(await messagesOf()).toBe(4);
      expect(await a.conversations.window(ref, 5, 10_000)).toHaveLength(2);
    });

    it("puts the exchange in the thread's conversation at once where a follow-up there came before the turn closed", async ({ a, b }) => {
      const ref = place();
      const thread = { ...ref, threadId: "thread-early" };
      const opening = randomUUID();
      const channel = await a.turns.start({ id: opening, conversation: ref, userId: "u1", instance: "test" });
      await answeredTurn(b, thread, "meanwhile?", "yes");
      await a.turns.finish({
        turnId: opening,
        end: { status: "answered", outcome: "answer", iterations: 1, usage: usage(0) },
        steps: [],
        workspace: ref,
        exchange: { conversationId: channel.id, question: { author: "alice", text: "first" }, answer: "one", alsoIn: thread },
      });
      expect((await b.conversations.window(thread, 5, 10_000)).map((m) => m.text)).toEqual(["meanwhile?", "yes", "first", "one"]);
    });

    it("leaves nothing of a turn whose closing fails half way: no step, no exchange, no tokens", async ({ shared, a }) => {
      const ref = place();
      const turnId = randomUUID();
      const conversation = await a.turns.start({ id: turnId, conversation: ref, userId: "u1", instance: "test" });
      const step = { seq: 1, tool: "calculator", input: {}, startedAt: 1, output: "1", durationMs: 1 };
      // two steps with one seq break the unique key after the first was written
      const closing = a.turns.finish({
        turnId,
        end: { status: "answered", outcome: "answer", iterations: 1, usage: usage(9) },
        steps: [step, step],
        workspace: ref,
        exchange: { conversationId: conversation.id, question: { author: "alice", text: "q" }, answer: "a" },
      });
      await expect(closing).rejects.toThrow();
      expect(Number((await shared.rows(`SELECT COUNT(*) AS n FROM turn_steps WHERE turn_id = '${turnId}'`))[0]!.n)).toBe(0);
      expect(await a.conversations.window(ref, 5, 10_000)).toEqual([]);
      expect(await a.usage.tokensToday(ref)).toBe(0);
      expect(await shared.rows(`SELECT status FROM turns WHERE id = '${turnId}'`)).toEqual([{ status: "running" }]);
    });

    it("records a failed turn's steps and tokens but no exchange", async ({ shared, a, b }) => {
      const ref = place();
      const turnId = randomUUID();
      await b.turns.start({ id: turnId, conversation: ref, userId: "u1", instance: "test" });
      await b.turns.finish({
        turnId,
        end: { status: "failed", outcome: "llm_server_error", iterations: 0, usage: usage(7), error: "Error: boom" },
        steps: [{ seq: 1, tool: "calculator", input: {}, startedAt: 1, output: "1", durationMs: 1 }],
        workspace: ref,
      });
      expect(await shared.rows(`SELECT status, outcome, error FROM turns WHERE id = '${turnId}'`)).toEqual([
        { status: "failed", outcome: "llm_server_error", error: "Error: boom" },
      ]);
      expect(await a.conversations.window(ref, 5, 10_000)).toEqual([]);
      expect(await a.usage.tokensToday(ref)).toBe(7);
    });

    it("stores text with NUL characters (which PostgreSQL refuses) without them, in the memory, the audit and the settings", async ({ shared, a, b }) => {
      const ref = place();
      const turnId = randomUUID();
      const conversation = await a.turns.start({ id: turnId, conversation: ref, userId: "u1", instance: "test" });
      await a.turns.finish({
        turnId,
        end: { status: "answered", outcome: "answer", iterations: 1, usage: usage(1), error: "odd\u0000error" },
        steps: [{ seq: 1, tool: "to\u0000ol", input: { text: "in\u0000put" }, startedAt: 1, output: "out\u0000put", durationMs: 1 }],
        workspace: ref,
        exchange: { conversationId: conversation.id, question: { author: "al\u0000ice", text: "ques\u0000tion" }, answer: "ans\u0000wer" },
      });
      expect(await b.conversations.window(ref, 5, 10_000)).toEqual([
        { role: "user", author: "alice", text: "question" },
        { role: "assistant", author: null, text: "answer" },
      ]);
      expect(await shared.rows(`SELECT tool, input, output FROM turn_steps WHERE turn_id = '${turnId}'`)).toEqual([
        { tool: "tool", input: '{"text":"input"}', output: "output" },
      ]);
      await a.workspaceSettings.set(ref, "systemPrompt", "be\u0000 kind", "admin");
      expect(await a.workspaceSettings.get(ref)).toEqual({ systemPrompt: "be kind" });
    });

    it("lets exactly one process claim an event id, however many try at once", async ({ a, b }) => {
      const id = randomUUID();
      const claims = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).events.claim("slack", id)));
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect(await a.events.claim("discord", id)).toBe(true);
    });

    it("remembers bot threads with their scope; the first scope stays", async ({ a, b }) => {
      const ref = place();
      await a.threads.remember({ platform: "slack", workspaceId: ref.workspaceId, channelId: "C1", threadId: `${ref.workspaceId}.1` });
      await a.threads.remember({ platform: "slack", workspaceId: ref.workspaceId, channelId: "C1", threadId: `${ref.workspaceId}.2` }, "channel");
      await b.threads.remember({ platform: "slack", workspaceId: ref.workspaceId, channelId: "C1", threadId: `${ref.workspaceId}.2` }, "thread");
      expect(await b.threads.scopeOf("slack", "C1", `${ref.workspaceId}.1`)).toBe("thread");
      expect(await b.threads.scopeOf("slack", "C1", `${ref.workspaceId}.2`)).toBe("channel");
      expect(await b.threads.scopeOf("slack", "C1", `${ref.workspaceId}.3`)).toBeUndefined();
      expect(await b.threads.scopeOf("discord", "C1", `${ref.workspaceId}.1`)).toBeUndefined();
    });

    it("applies a settings change made through one process on the other, and audits it", async ({ shared, a, b }) => {
      const ws = { platform: "test", workspaceId: `w-${randomUUID()}` };
      // both processes have the settings cached
      expect(await b.workspaceSettings.get(ws)).toEqual({});
      expect((await b.toolSettings.overrides(ws)).size).toBe(0);

      await a.workspaceSettings.set(ws, "memoryWindow", 3, "admin-1");
      await a.workspaceSettings.set(ws, "ignoredUsers", ["troll"], "admin-1");
      await a.toolSettings.set(ws, "calculator", false, "admin-2");
      expect(await a.workspaceSettings.get(ws)).toEqual({ memoryWindow: 3, ignoredUsers: ["troll"] });
      await waitFor(async () => (await b.workspaceSettings.get(ws)).memoryWindow === 3, "the other process to see the new window");
      expect(await b.workspaceSettings.get(ws)).toEqual({ memoryWindow: 3, ignoredUsers: ["troll"] });
      await waitFor(async () => (await b.toolSettings.overrides(ws)).get("calculator")?.enabled === false, "the other process to see the tool change");
      expect((await b.toolSettings.overrides(ws)).get("calculator")).toMatchObject({ tool: "calculator", enabled: false, changedBy: "admin-2" });
      expect(await b.workspaceSettings.workspacesIgnoring("test", "troll")).toContain(ws.workspaceId);
      expect(await b.workspaceSettings.workspacesIgnoring("test", "someone")).toEqual([]);
      expect(await b.workspaceSettings.workspacesIgnoring("other", "troll")).toEqual([]);

      await b.workspaceSettings.set(ws, "memoryWindow", undefined, "admin-1");
      await waitFor(async () => (await a.workspaceSettings.get(ws)).memoryWindow === undefined, "the reset to reach the first process");
      const audit = await shared.rows(
        `SELECT key, value_json AS value, changed_by AS who FROM settings_changes WHERE workspace_id = '${ws.workspaceId}' ORDER BY id`,
      );
      expect(audit).toEqual([
        { key: "memoryWindow", value: "3", who: "admin-1" },
        { key: "ignoredUsers", value: '["troll"]', who: "admin-1" },
        { key: "tool:calculator", value: "false", who: "admin-2" },
        { key: "memoryWindow", value: "null", who: "admin-1" },
      ]);
    });

    it("keeps the currency rates one process fetched for the others", async ({ a, b }) => {
      const source = `ecb-${randomUUID()}`;
      expect(await b.currencyRates.get(source)).toBeUndefined();
      await a.currencyRates.put(source, { date: "2026-01-02", rates: { USD: 1.1 } });
      expect(await b.currencyRates.get(source)).toMatchObject({ date: "2026-01-02", rates: { USD: 1.1 }, fetchedAt: expect.any(Number) });
    });

    it("answers a ping and describes itself", async ({ a }) => {
      await expect(a.ping()).resolves.toBeUndefined();
      const report = await a.inspect();
      expect(report.schemaVersion).toBeGreaterThan(0);
      expect(report.turns).toBeGreaterThan(0);
      expect(report.problem).toBeUndefined();
    });
  },
);

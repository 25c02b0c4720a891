import { randomUUID } from "node:crypto";
import { expect, vi } from "vitest";
import { silentLogger } from "../../src/log.js";
import { budgetKey } from "../../src/store/budget-store.js";
import type { Store } from "../../src/store/store.js";
import type { WorkspaceRef } from "../../src/store/types.js";
import { WorkspacePurge } from "../../src/store/workspace-purge.js";
import { describeOnEngines, type SharedDatabase } from "./engines.js";

/**
 * Uninstalled workspaces (issue 27), on both engines with two stores on one database: a departed
 * workspace's schedules stop at once; its data (memory, history index, settings, usage, budgets,
 * votes, schedules) is purged once UNINSTALL_PURGE_DAYS have passed by a fake clock, and only
 * its own; a reinstall before then keeps everything.
 */
const DAY_MS = 24 * 60 * 60 * 1000;

/** The tables a workspace's data is in, and how a row of it is found. */
const COUNTS: Record<string, (ws: WorkspaceRef) => string> = {
  conversations: (ws) => `SELECT COUNT(*) AS n FROM conversations WHERE workspace_id = '${ws.workspaceId}'`,
  turns: (ws) => `SELECT COUNT(*) AS n FROM turns t JOIN conversations c ON c.id = t.conversation_id WHERE c.workspace_id = '${ws.workspaceId}'`,
  messages: (ws) => `SELECT COUNT(*) AS n FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE c.workspace_id = '${ws.workspaceId}'`,
  turn_steps: (ws) =>
    `SELECT COUNT(*) AS n FROM turn_steps s JOIN turns t ON t.id = s.turn_id JOIN conversations c ON c.id = t.conversation_id WHERE c.workspace_id = '${ws.workspaceId}'`,
  turn_model_calls: (ws) =>
    `SELECT COUNT(*) AS n FROM turn_model_calls m JOIN turns t ON t.id = m.turn_id JOIN conversations c ON c.id = t.conversation_id WHERE c.workspace_id = '${ws.workspaceId}'`,
  turn_feedback: (ws) => `SELECT COUNT(*) AS n FROM turn_feedback WHERE workspace_id = '${ws.workspaceId}'`,
  history_messages: (ws) => `SELECT COUNT(*) AS n FROM history_messages WHERE workspace_id = '${ws.workspaceId}'`,
  workspace_settings: (ws) => `SELECT COUNT(*) AS n FROM workspace_settings WHERE workspace_id = '${ws.workspaceId}'`,
  settings_changes: (ws) => `SELECT COUNT(*) AS n FROM settings_changes WHERE workspace_id = '${ws.workspaceId}'`,
  tool_settings: (ws) => `SELECT COUNT(*) AS n FROM tool_settings WHERE workspace_id = '${ws.workspaceId}'`,
  channel_settings: (ws) => `SELECT COUNT(*) AS n FROM channel_settings WHERE workspace_id = '${ws.workspaceId}'`,
  token_usage_daily: (ws) => `SELECT COUNT(*) AS n FROM token_usage_daily WHERE workspace_id = '${ws.workspaceId}'`,
  usage_daily: (ws) => `SELECT COUNT(*) AS n FROM usage_daily WHERE workspace_id = '${ws.workspaceId}'`,
  usage_daily_users: (ws) => `SELECT COUNT(*) AS n FROM usage_daily_users WHERE workspace_id = '${ws.workspaceId}'`,
  budget_limits: (ws) => `SELECT COUNT(*) AS n FROM budget_limits WHERE workspace_id = '${ws.workspaceId}'`,
  budget_spend: (ws) => `SELECT COUNT(*) AS n FROM budget_spend WHERE budget_key LIKE '%"${ws.workspaceId}"%'`,
  scheduled_tasks: (ws) => `SELECT COUNT(*) AS n FROM scheduled_tasks WHERE workspace_id = '${ws.workspaceId}'`,
  scheduled_runs: (ws) => `SELECT COUNT(*) AS n FROM scheduled_runs r JOIN scheduled_tasks t ON t.id = r.task_id WHERE t.workspace_id = '${ws.workspaceId}'`,
};

await describeOnEngines(
  (engine) => `the ${engine.name} store's departed workspaces`,
  2,
  (it) => {
    const workspace = (): WorkspaceRef => ({ platform: "slack", workspaceId: `T-${randomUUID()}` });

    async function counts(shared: SharedDatabase, ws: WorkspaceRef): Promise<Record<string, number>> {
      const entries = await Promise.all(Object.entries(COUNTS).map(async ([table, sql]) => [table, Number((await shared.rows(sql(ws)))[0]!.n)] as const));
      return Object.fromEntries(entries);
    }

    /** A workspace that has used everything: an answered turn with a step, a vote, the index, settings, budgets, a schedule and its run. */
    async function fill(store: Store, ws: WorkspaceRef): Promise<string> {
      const where = { ...ws, channelId: "C1" };
      const turnId = randomUUID();
      const conversation = await store.turns.start({
        id: turnId,
        conversation: where,
        userId: "U1",
        instance: "test",
        context: { model: "m", channelId: "C1" },
      });
      await store.turns.finish({
        turnId,
        end: { status: "answered", outcome: "answer", iterations: 1, usage: { promptTokens: 5, completionTokens: 5, totalTokens: 10 } },
        steps: [{ seq: 1, tool: "calculator", input: { expression: "1+1" }, startedAt: 1, output: "2", durationMs: 1 }],
        modelCalls: [{ model: "m", provider: "openai", purpose: "turn", retry: false, outcome: "ok", startedAt: 1, durationMs: 1, afterStep: 0 }],
        workspace: ws,
        exchange: { conversationId: conversation.id, question: { author: "ann", text: "1+1?" }, answer: "2" },
      });
      await store.feedback.vote({ ...ws, turnId, userId: "U2", vote: "up" });
      await store.history.add([{ ...where, messageId: "m1", kind: "message", authorId: "U1", authorName: "ann", text: "hello there", time: Date.now() }]);
      await store.workspaceSettings.set(ws, "systemPrompt", "Be brief.", "U-admin");
      await store.toolSettings.set(ws, "wikipedia", false, "U-admin");
      await store.channelSettings.set(where, "prompt", "Here only.", "U-admin");
      await store.budgets.setLimit(ws, { scope: "workspace", subject: "", period: "day" }, { unit: "tokens", amount: 1_000 }, "U-admin");
      const key = budgetKey(ws, "workspace", "", "day");
      await store.budgets.settle([{ key, windowStart: 0, amount: 10, held: 0 }]);
      const task = randomUUID();
      await store.schedules.create({
        id: task,
        ...where,
        creator: "U1",
        whenText: "every day at 9",
        cron: "0 9 * * *",
        timeZone: "UTC",
        task: "Post the news",
        nextDue: 3_000,
        createdAt: 1,
      });
      await store.schedules.claim({ taskId: task, dueAt: 2_000, nextDue: 3_000, instance: "test", status: "running", at: 2_001 });
      return task;
    }

    const dueTasks = async (store: Store, ws: WorkspaceRef) => (await store.schedules.due(10_000, 1_000)).filter((task) => task.workspaceId === ws.workspaceId);

    it("stops a departed workspace's schedules at once for every process, and runs them again once it returns", async ({ a, b }) => {
      const gone = workspace();
      const stays = workspace();
      const task = await fill(a, gone);
      await fill(a, stays);
      expect((await dueTasks(b, gone)).map((t) => t.id)).toEqual([task]);

      await a.departures.left({ ...gone, leftAt: 1_000, reason: "app_uninstalled" });
      expect(await dueTasks(b, gone)).toEqual([]);
      expect(await dueTasks(b, stays)).toHaveLength(1);
      // A second uninstall event keeps the first time.
      await b.departures.left({ ...gone, leftAt: 5_000, reason: "tokens_revoked" });
      expect((await a.departures.due(1_000, 100)).filter((d) => d.workspaceId === gone.workspaceId)).toEqual([
        { ...gone, leftAt: 1_000, reason: "app_uninstalled" },
      ]);

      expect(await b.departures.returned(gone)).toBe(true);
      expect(await b.departures.returned(gone)).toBe(false);
      expect((await dueTasks(a, gone)).map((t) => t.id)).toEqual([task]);
    });

    it("purges a departed workspace's data after UNINSTALL_PURGE_DAYS by the clock, and nothing of another workspace", async ({ shared, a, b }) => {
      const gone = workspace();
      const stays = workspace();
      await fill(a, gone);
      await fill(b, stays);
      const before = await counts(shared, gone);
      expect(Object.entries(before).filter(([, n]) => n === 0)).toEqual([]);
      const staysBefore = await counts(shared, stays);

      const day0 = Date.UTC(2026, 0, 1);
      const purge = new WorkspacePurge(b.departures, { purgeDays: 30, logger: silentLogger(), now: () => day0 });
      await purge.left(gone.platform, gone.workspaceId, "app_uninstalled");

      expect((await purge.sweep(day0 + 29 * DAY_MS)).size).toBe(0);
      expect(await counts(shared, gone)).toEqual(before);

      const purged = await purge.sweep(day0 + 30 * DAY_MS);
      expect(purged.get(`slack:${gone.workspaceId}`)).toBeGreaterThan(0);
      expect(Object.values(await counts(shared, gone)).every((n) => n === 0)).toBe(true);
      expect(await counts(shared, stays)).toEqual(staysBefore);
      // The departure went with the data: a later sweep has nothing to do.
      expect((await purge.sweep(day0 + 31 * DAY_MS)).size).toBe(0);
    });

    it("keeps everything of a workspace reinstalled within the delay", async ({ shared, a }) => {
      const back = workspace();
      await fill(a, back);
      const before = await counts(shared, back);
      const day0 = Date.UTC(2026, 0, 1);
      const purge = new WorkspacePurge(a.departures, { purgeDays: 30, logger: silentLogger(), now: () => day0 });
      await purge.left(back.platform, back.workspaceId, "tokens_revoked");
      await purge.returned(back.platform, back.workspaceId);
      expect((await purge.sweep(day0 + 60 * DAY_MS)).size).toBe(0);
      expect(await counts(shared, back)).toEqual(before);
    });

    it("makes every process forget its cached settings of a purged workspace: they read as never set", async ({ a, b }) => {
      const gone = workspace();
      const channel = { ...gone, channelId: "C1" };
      await a.workspaceSettings.set(gone, "systemPrompt", "Be brief.", "U-admin");
      await a.toolSettings.set(gone, "wikipedia", false, "U-admin");
      await a.toolApprovals.set(gone, "web_fetch", true, "U-admin");
      await a.channelSettings.set(channel, "prompt", "Here only.", "U-admin");
      await a.budgets.setLimit(gone, { scope: "workspace", subject: "", period: "day" }, { unit: "tokens", amount: 1_000 }, "U-admin");
      const seen = async (store: Store) => ({
        settings: await store.workspaceSettings.get(gone),
        tools: [...(await store.toolSettings.overrides(gone)).keys()],
        approvals: [...(await store.toolApprovals.overrides(gone)).keys()],
        channel: await store.channelSettings.get(channel),
        budgets: (await store.budgets.limits(gone)).length,
      });
      // What a workspace that never set anything reads.
      const other = workspace();
      const never = {
        settings: await b.workspaceSettings.get(other),
        tools: [],
        approvals: [],
        channel: await b.channelSettings.get({ ...other, channelId: "C1" }),
        budgets: 0,
      };
      // Both processes read the workspace's settings, and cache them.
      for (const store of [a, b]) {
        expect(await seen(store)).toMatchObject({ settings: { systemPrompt: "Be brief." }, tools: ["wikipedia"], approvals: ["web_fetch"], budgets: 1 });
      }

      const purge = new WorkspacePurge(a.departures, { purgeDays: 0, logger: silentLogger() });
      await purge.left(gone.platform, gone.workspaceId, "app_uninstalled");
      await purge.idle();
      await purge.stop();
      // PostgreSQL tells the other processes through a notification: they hear it a moment after the commit.
      for (const store of [a, b]) await vi.waitFor(async () => expect(await seen(store)).toEqual(never), { timeout: 5_000, interval: 20 });
    });

    it("purges at once with UNINSTALL_PURGE_DAYS=0, in the background", async ({ shared, a }) => {
      const gone = workspace();
      await fill(a, gone);
      const purge = new WorkspacePurge(a.departures, { purgeDays: 0, logger: silentLogger() });
      await purge.left(gone.platform, gone.workspaceId, "app_uninstalled");
      await purge.idle();
      expect(Object.values(await counts(shared, gone)).every((n) => n === 0)).toBe(true);
      await purge.stop();
    });
  },
);

import { randomUUID } from "node:crypto";
import { expect, vi } from "vitest";
import type { Store } from "../../src/store/store.js";
import type { ConversationRef, WorkspaceRef } from "../../src/store/types.js";
import type { UsageRow } from "../../src/store/usage-report-store.js";
import { describeOnEngines, type SharedDatabase } from "./engines.js";

/**
 * The daily usage rollup (migration 020) that the usage reports read, the same on both engines:
 * every figure equals a count over the turns themselves (those that ended), whichever way a turn
 * ended (closed, failed, reaped as interrupted, closed after being reaped, a summary call), and the
 * rollup of a database that predates it is built from its turns by the migration.
 */
const DAY = 86_400_000;
const today = () => Math.floor(Date.now() / DAY);

const FIGURES = `COUNT(*) AS turns, CAST(COALESCE(SUM(t.prompt_tokens), 0) AS BIGINT) AS "promptTokens",
  CAST(COALESCE(SUM(t.completion_tokens), 0) AS BIGINT) AS "completionTokens"`;
/** The turns of a workspace that ended, from day `fromDay` on: what the reports count. */
const ended = (ws: WorkspaceRef, fromDay: number) =>
  `FROM turns t JOIN conversations c ON c.id = t.conversation_id
   WHERE c.platform = '${ws.platform}' AND c.workspace_id = '${ws.workspaceId}' AND t.status <> 'running' AND t.started_at >= ${fromDay * DAY}`;

const byKey = (rows: readonly UsageRow[]) => [...rows].sort((x, y) => x.key.localeCompare(y.key));

await describeOnEngines(
  (engine) => `the ${engine.name} store's usage rollup`,
  2,
  (it) => {
    const workspace = (): WorkspaceRef => ({ platform: "test", workspaceId: `w-${randomUUID()}` });

    async function start(store: Store, where: ConversationRef, options: { user?: string; model?: string; instance?: string; bare?: boolean } = {}) {
      const id = randomUUID();
      const conversation = await store.turns.start({
        id,
        conversation: where,
        userId: options.user ?? "u1",
        instance: options.instance ?? "test",
        context: options.bare ? undefined : { model: options.model ?? "m1", channelId: where.channelId },
      });
      return { id, conversation };
    }

    async function finish(store: Store, where: ConversationRef, id: string, tokens: [number, number], failed = false) {
      const usage = { promptTokens: tokens[0], completionTokens: tokens[1], totalTokens: tokens[0] + tokens[1] };
      await store.turns.finish({
        turnId: id,
        end: failed
          ? { status: "failed", outcome: "llm_error", iterations: 1, usage, error: "boom" }
          : { status: "answered", outcome: "answer", iterations: 1, usage },
        steps: [],
        workspace: where,
      });
    }

    /** The reports' figures and the same figures counted over the turns, side by side. */
    async function compare(shared: SharedDatabase, store: Store, ws: WorkspaceRef, fromDay: number) {
      const summary = await store.usageReports.summary(ws, fromDay, 100);
      const grouped = async (key: string, only = "") =>
        (await shared.rows(`SELECT ${key} AS key, ${FIGURES} ${ended(ws, fromDay)} ${only} GROUP BY 1`)) as unknown as UsageRow[];
      const daily = await shared.rows(
        `SELECT t.started_at / ${DAY} AS day, COALESCE(t.model, '') AS model, ${FIGURES} ${ended(ws, fromDay)} GROUP BY 1, 2 ORDER BY 1, 2`,
      );
      return {
        reported: {
          total: summary.total,
          byChannel: byKey(summary.byChannel),
          byUser: byKey(summary.byUser),
          byModel: byKey(summary.byModel),
          byKind: byKey(summary.byKind),
          daily: await store.usageReports.daily(ws, fromDay),
        },
        counted: {
          total: (await shared.rows(`SELECT ${FIGURES} ${ended(ws, fromDay)}`))[0],
          byChannel: byKey(await grouped("COALESCE(t.channel_id, c.channel_id)")),
          byUser: byKey(await grouped("t.user_id", "AND t.kind = 'turn'")),
          byModel: byKey(await grouped("COALESCE(t.model, '')")),
          byKind: byKey(await grouped("t.kind")),
          daily,
        },
      };
    }

    it("reports what a count over the turns that ended says: totals, channels, people, models, kinds, days", async ({ a, b, shared }) => {
      const ws = workspace();
      const c1: ConversationRef = { ...ws, channelId: "C1" };
      const first = await start(a, c1, { user: "U1", model: "m1" });
      await finish(a, c1, first.id, [10, 2]);
      const inThread = await start(b, { ...c1, threadId: "T1" }, { user: "U2", model: "m2" });
      await finish(b, c1, inThread.id, [20, 3], true);
      const other = await start(a, { ...ws, channelId: "C2" }, { user: "U1", model: "m1" });
      await finish(a, c1, other.id, [5, 5]);
      const bare = await start(a, { ...ws, channelId: "C3" }, { user: "U3", bare: true });
      await finish(a, c1, bare.id, [1, 1]);
      // A summary call's usage, recorded with its outcome (here a failed attempt).
      await a.summaries.failed(first.conversation.id, 0, 0, {
        conversationId: first.conversation.id,
        workspace: ws,
        channelId: "C1",
        model: "m1",
        ok: true,
        promptTokens: 7,
        completionTokens: 1,
        durationMs: 5,
      });
      // a turn still running is not counted yet; one that started three days ago counts on its day
      const running = await start(a, c1, { user: "U4", model: "m3" });
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(Date.now() - 3 * DAY);
      const old = await start(b, c1, { user: "U1", model: "m1" }).finally(() => vi.useRealTimers());
      await finish(b, c1, old.id, [100, 10]);
      // another workspace's turns are not this one's
      const elsewhere = await start(a, { ...workspace(), channelId: "C1" });
      await finish(a, c1, elsewhere.id, [1_000, 1_000]);

      const { reported, counted } = await compare(shared, b, ws, today() - 29);
      expect(reported).toEqual(counted);
      expect(reported.total).toEqual({ turns: 6, promptTokens: 143, completionTokens: 22 });
      expect(reported.byUser.map((row) => row.key)).toEqual(["U1", "U2", "U3"]);
      expect(reported.byChannel.map((row) => [row.key, row.turns])).toEqual([
        ["C1", 4],
        ["C2", 1],
        ["C3", 1],
      ]);
      expect(reported.byKind.map((row) => [row.key, row.turns])).toEqual([
        ["summary", 1],
        ["turn", 5],
      ]);
      expect(reported.daily.map((row) => row.day)).toEqual([today() - 3, today(), today(), today()]);
      // today alone leaves out the turn of three days ago
      expect((await b.usageReports.summary(ws, today(), 10)).total).toEqual({ turns: 5, promptTokens: 43, completionTokens: 12 });
      expect(await b.usageReports.activeWorkspaces(today())).toContainEqual(ws);
      expect(await b.usageReports.activeWorkspaces(today() + 1)).toEqual([]);

      await finish(a, c1, running.id, [3, 3]);
      const after = await compare(shared, b, ws, today() - 29);
      expect(after.reported).toEqual(after.counted);
      expect(after.reported.total.turns).toBe(7);
    });

    it("counts a turn reaped as interrupted once, and adds its tokens when its process closes it after all", async ({ a, b, shared }) => {
      const ws = workspace();
      const where: ConversationRef = { ...ws, channelId: "C1" };
      const orphan = await start(a, where, { instance: `gone-${randomUUID()}` });
      await b.instances.reap({ leaseMs: 60_000 });
      let figures = await compare(shared, b, ws, today());
      expect(figures.reported).toEqual(figures.counted);
      expect(figures.reported.total).toEqual({ turns: 1, promptTokens: 0, completionTokens: 0 });

      await finish(a, where, orphan.id, [4, 4]);
      figures = await compare(shared, b, ws, today());
      expect(figures.reported).toEqual(figures.counted);
      expect(figures.reported.total).toEqual({ turns: 1, promptTokens: 4, completionTokens: 4 });

      // a clean stop marks the run's running turns interrupted: they count too
      const run = { id: `run-${randomUUID()}`, name: "test", host: "here", pid: 1 };
      await a.instances.register(run);
      await start(a, where, { instance: run.id, user: "U9" });
      await a.instances.leave(run);
      figures = await compare(shared, b, ws, today());
      expect(figures.reported).toEqual(figures.counted);
      expect(figures.reported.total.turns).toBe(2);
      expect(figures.reported.byUser.map((row) => row.key)).toEqual(["u1", "U9"]);
    });

    it("is built from the turns already recorded when the migration adds it", async ({ a, shared }) => {
      const ws = workspace();
      const where: ConversationRef = { ...ws, channelId: "C1" };
      for (const [user, model, tokens] of [
        ["U1", "m1", [10, 1]],
        ["U2", "m2", [20, 2]],
        ["U1", "m2", [30, 3]],
      ] as const) {
        const turn = await start(a, where, { user, model });
        await finish(a, where, turn.id, [...tokens]);
      }
      await start(a, where, { user: "U3" });
      // the database as it was before migration 020, then a process that applies it
      await shared.run(`DROP TABLE usage_daily; DROP TABLE usage_daily_users; DELETE FROM schema_migrations WHERE version = 20`);
      const upgraded = await shared.open();
      const { reported, counted } = await compare(shared, upgraded, ws, today() - 29);
      expect(reported).toEqual(counted);
      expect(reported.total).toEqual({ turns: 3, promptTokens: 60, completionTokens: 6 });
    });
  },
);

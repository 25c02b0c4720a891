import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { silentLogger } from "../../src/log.js";
import { PostgresStore } from "../../src/store/postgres/postgres-store.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import type { Store } from "../../src/store/store.js";
import type { ConversationRef } from "../../src/store/types.js";
import { PROJECT_ROOT, TSX_LOADER } from "../support/child-bot.js";
import { createTestDatabase, postgresAvailability, queryRows, type TestDatabase } from "../support/postgres.js";

const availability = await postgresAvailability();

/** `npm run migrate -- --to-postgres`, as an operator runs it (in `cwd`, where no .env is). */
function migrate(cwd: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ["--import", TSX_LOADER, resolve(PROJECT_ROOT, "src/ops/migrate-cli.ts"), "--to-postgres"], {
    cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, OPENAI_BASE_URL: "http://127.0.0.1:9/v1", ...env },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  return new Promise((done) => child.on("close", (code) => done({ code, stdout, stderr })));
}

const channel: ConversationRef = { platform: "slack", workspaceId: "T1", channelId: "C1" };
const thread: ConversationRef = { ...channel, threadId: "1700000000.000100" };

/** A bot's life in SQLite: exchanges (one with a tool step, one opening a thread nobody has followed up in yet), settings, a thread, an event, rates. */
async function fill(store: Store): Promise<void> {
  for (const [i, question] of ["first question", "second question"].entries()) {
    const turnId = randomUUID();
    const conversation = await store.turns.start({ id: turnId, conversation: channel, userId: "U1", instance: "main" });
    await store.turns.finish({
      turnId,
      end: { status: "answered", outcome: "answer", iterations: 1, usage: { promptTokens: 10, completionTokens: 5, totalTokens: 15 } },
      steps: i === 0 ? [{ seq: 1, tool: "calculator", input: { expression: "6*7" }, startedAt: 1, output: "42", durationMs: 2 }] : [],
      modelCalls:
        i === 0
          ? [
              {
                model: "gpt-4o-mini",
                provider: "openai",
                purpose: "turn",
                retry: false,
                outcome: "ok",
                startedAt: 1,
                durationMs: 20,
                firstTokenMs: 5,
                afterStep: 0,
              },
              {
                model: "gpt-4o-mini",
                provider: "openai",
                purpose: "side_question",
                retry: true,
                outcome: "timeout",
                startedAt: 2,
                durationMs: 30,
                afterStep: 1,
              },
            ]
          : [],
      traceId: i === 0 ? "0af7651916cd43dd8448eb211c80319c" : undefined,
      link: i === 0 ? "https://t1.slack.com/archives/C1/p1700000000000100" : undefined,
      workspace: channel,
      exchange: {
        conversationId: conversation.id,
        question: { author: "alice", text: question, attachments: i === 0 ? [{ name: "notes.txt", type: "text/plain", size: 12 }] : undefined },
        answer: `answer to ${question}`,
        alsoIn: i === 0 ? thread : undefined,
      },
    });
    if (i === 0) await store.feedback.vote({ platform: "slack", workspaceId: "T1", turnId, userId: "U2", vote: "up" });
  }
  await store.toolSettings.set(channel, "wikipedia", false, "U-admin");
  await store.workspaceSettings.set(channel, "ignoredUsers", ["U-troll"], "U-admin");
  await store.workspaceSettings.set(channel, "systemPrompt", "Answer briefly.", "U-admin");
  await store.threads.remember({ platform: "slack", workspaceId: "T1", channelId: "C1", threadId: "1600000000.000001" }, "channel");
  await store.events.claim("slack", "C1:1700000000.000100");
  await store.currencyRates.put("ecb", { date: "2026-01-02", rates: { USD: 1.1 } });
  await store.toolApprovals.set(channel, "shred", true, "U-admin");
  await store.channelSettings.set({ ...channel, channelId: "C1" }, "prompt", "In C1 only.", "U-admin");
  await store.approvals.create({
    id: "approval-1",
    platform: "slack",
    workspaceId: "T1",
    channelId: "C1",
    turnId: "t",
    tool: "shred",
    args: { file: "a" },
    askedBy: "U1",
    requestedAt: 1,
    instance: "main",
  });
  await store.approvals.close("approval-1", "approved", { by: "U-admin", via: "slack", at: 2 });
  await store.schedules.create({
    id: "task-1",
    platform: "slack",
    workspaceId: "T1",
    channelId: "C1",
    creator: "U1",
    whenText: "every weekday at 9",
    cron: "0 9 * * 1-5",
    timeZone: "Europe/Paris",
    task: "Post the news",
    nextDue: 3_000,
    createdAt: 1,
  });
  await store.schedules.claim({ taskId: "task-1", dueAt: 3_000, nextDue: 4_000, instance: "main", status: "running", at: 3_001 });
  await store.schedules.finish("task-1", 3_000, { status: "ok", tokens: 42, at: 3_002 });
  await store.budgets.setLimit(channel, { scope: "workspace", subject: "", period: "day" }, { unit: "tokens", amount: 50_000 }, "U-admin");
  await store.budgets.claimAlert("budget-1", 86_400_000, 80, 5);
  await store.departures.left({ platform: "slack", workspaceId: "T-gone", leftAt: 7, reason: "app_uninstalled" });
}

describe.skipIf(!availability.available)(
  availability.available ? "npm run migrate -- --to-postgres" : `npm run migrate -- --to-postgres (not run: ${availability.reason})`,
  () => {
    let dir: string;
    let database: TestDatabase;
    afterEach(async () => {
      rmSync(dir, { recursive: true, force: true });
      await database.drop();
    });

    it("copies a SQLite database into an empty PostgreSQL one, which the bot then reads as it was; a second copy is refused", async () => {
      dir = mkdtempSync(join(tmpdir(), "agent-bot-copy-"));
      database = await createTestDatabase("agent_bot_copy");
      const path = join(dir, "bot.sqlite");
      const sqlite = SqliteStore.open(path);
      await fill(sqlite);
      await sqlite.close();
      // the password is not checked here (trust authentication), but it must never be printed
      const url = new URL(database.url);
      url.username = "postgres";
      url.password = "never-print-me";

      const run = await migrate(dir, { DATABASE_PATH: path, DATABASE_URL: url.toString() });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(
        /^Copied .*bot\.sqlite into postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:5432\/agent_bot_copy_\w+: conversations 2, turns 2, messages 4, conversation_summaries 0, history_messages 0, history_backfills 0, turn_feedback 1, turn_steps 1, turn_model_calls 2, tool_settings 1, bot_threads 1, processed_events 1, currency_rates 1, platform_installations 0, workspace_settings 2, settings_changes 6, token_usage_daily 1, usage_daily 1, usage_daily_users 1, budget_limits 1, budget_spend 0, budget_alerts 1, workspace_departures 1, approvals 1, tool_approval_settings 1, channel_settings 1, scheduled_tasks 1, scheduled_runs 1\.\n$/,
      );
      expect(run.stdout + run.stderr).not.toContain("never-print-me");

      const store = await PostgresStore.open({ url: database.url, poolSize: 2, timeoutMs: 10_000, logger: silentLogger() });
      try {
        expect((await store.conversations.window(channel, 5, 10_000)).map((m) => m.text)).toEqual([
          "first question",
          "answer to first question",
          "second question",
          "answer to second question",
        ]);
        // the thread's seed came along: its first use copies the exchange in
        expect((await store.conversations.window(thread, 5, 10_000)).map((m) => m.text)).toEqual(["first question", "answer to first question"]);
        expect((await store.conversations.window(thread, 5, 10_000))[0]!.attachments).toEqual([{ name: "notes.txt", type: "text/plain", size: 12 }]);
        expect((await store.toolSettings.overrides(channel)).get("wikipedia")).toMatchObject({ enabled: false, changedBy: "U-admin" });
        expect(await store.workspaceSettings.get(channel)).toEqual({ ignoredUsers: ["U-troll"], systemPrompt: "Answer briefly." });
        expect(await store.workspaceSettings.workspacesIgnoring("slack", "U-troll")).toEqual([channel.workspaceId]);
        expect(await store.threads.scopeOf("slack", "C1", "1600000000.000001")).toBe("channel");
        expect(await store.events.claim("slack", "C1:1700000000.000100")).toBe(false);
        expect(await store.usage.tokensToday(channel)).toBe(30);
        // the usage rollup came along: the reports read it
        const today = Math.floor(Date.now() / 86_400_000);
        expect((await store.usageReports.summary(channel, today, 10)).total).toEqual({ turns: 2, promptTokens: 20, completionTokens: 10 });
        expect(await store.currencyRates.get("ecb")).toMatchObject({ date: "2026-01-02", rates: { USD: 1.1 } });
        expect((await store.toolApprovals.overrides(channel)).get("shred")).toMatchObject({ required: true });
        expect(await store.channelSettings.get({ ...channel, channelId: "C1" })).toEqual({ prompt: "In C1 only." });
        expect(await store.schedules.get("task-1")).toMatchObject({ nextDue: 4_000, cron: "0 9 * * 1-5", status: "active" });
        expect(await store.schedules.history("task-1", 10)).toMatchObject([{ dueAt: 3_000, status: "ok", tokens: 42 }]);
        expect(await store.approvals.get("approval-1")).toMatchObject({ status: "approved", decidedBy: "U-admin", decidedVia: "slack", args: { file: "a" } });
        expect(await store.budgets.limits(channel)).toMatchObject([
          { scope: "workspace", period: "day", unit: "tokens", amount: 50_000, changedBy: "U-admin" },
        ]);
        expect(await store.budgets.claimAlert("budget-1", 86_400_000, 80, 6)).toBe(false);
        expect(await queryRows(database.url, "SELECT workspace_id, reason FROM workspace_departures")).toEqual([
          { workspace_id: "T-gone", reason: "app_uninstalled" },
        ]);
        expect(await queryRows(database.url, "SELECT user_id, vote, changes FROM turn_feedback")).toEqual([{ user_id: "U2", vote: "up", changes: 0 }]);
        expect(await queryRows(database.url, "SELECT seq, purpose, retry, outcome, first_token_ms::int AS ttft FROM turn_model_calls ORDER BY seq")).toEqual([
          { seq: 1, purpose: "turn", retry: false, outcome: "ok", ttft: 5 },
          { seq: 2, purpose: "side_question", retry: true, outcome: "timeout", ttft: null },
        ]);
        expect(await queryRows(database.url, "SELECT trace_id, link FROM turns WHERE trace_id IS NOT NULL")).toEqual([
          { trace_id: "0af7651916cd43dd8448eb211c80319c", link: "https://t1.slack.com/archives/C1/p1700000000000100" },
        ]);
        expect(await queryRows(database.url, "SELECT tool, input, output FROM turn_steps")).toEqual([
          { tool: "calculator", input: '{"expression":"6*7"}', output: "42" },
        ]);

        // new rows continue after the copied ids
        const fresh = await store.conversations.open({ ...channel, channelId: "C2" });
        expect(fresh.id).toBe(3);
        // five settings and the budget set in SQLite, then this one
        await store.workspaceSettings.set(channel, "memoryWindow", 3, "U-admin");
        expect(await queryRows(database.url, "SELECT MAX(id)::int AS id FROM settings_changes")).toEqual([{ id: 7 }]);
      } finally {
        await store.close();
      }

      const again = await migrate(dir, { DATABASE_PATH: path, DATABASE_URL: database.url });
      expect(again.code).toBe(1);
      expect(again.stderr).toContain("the PostgreSQL database already holds conversations or settings; copy into an empty database");
      expect(Number((await queryRows(database.url, "SELECT COUNT(*) AS n FROM messages"))[0]!.n)).toBe(6);
    });

    it("says what to set when DATABASE_URL is missing", async () => {
      dir = mkdtempSync(join(tmpdir(), "agent-bot-copy-"));
      database = await createTestDatabase("agent_bot_copy");
      const run = await migrate(dir, { DATABASE_PATH: join(dir, "none.sqlite") });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain("Set DATABASE_URL to the PostgreSQL database to copy into");
    });
  },
);

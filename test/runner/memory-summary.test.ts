import { queryObjects } from "node:v8";
import { afterEach, describe, expect, it } from "vitest";
import { parseCommandText } from "../../src/runner/commands/command-text.js";
import type { RecordedRequest, Responder } from "../fakes/fake-openai.js";
import { dbOf, RecordingSink, request, startTestApp, type TestApp } from "../support/test-app.js";

const SPEAKERS = [
  { userId: "u-alice", userName: "Alice" },
  { userId: "u-bob", userName: "Bob" },
  { userId: "u-carol", userName: "Carol" },
] as const;

/** A summary request (the summarizer's instruction), told apart from a turn's. */
const isSummary = (req: RecordedRequest) => String(req.body.messages[0]?.content ?? "").startsWith("You keep the running summary of a group chat");
const contents = (req: RecordedRequest) => req.body.messages.map((m: any) => `${m.role}: ${m.content}`);

/** Answers turns with "answer to <question>", summaries with a summary naming how many exchanges it read. */
function model(
  summary: Responder = (req) => ({ kind: "message", content: `SUMMARY after ${countExchanges(req)} exchanges: Alice chose the release date.` }),
): Responder {
  return (req) => {
    if (isSummary(req)) return summary(req);
    return { kind: "message", content: `answer to ${req.body.messages.at(-1).content}` };
  };
}
const countExchanges = (req: RecordedRequest) => (String(req.body.messages[1].content).match(/^\[.*\] bot \(answering/gm) ?? []).length;

/** The question of exchange n, by one of three speakers; some carry identifiers. */
function question(n: number): string {
  if (n === 2) return "The release notes are at https://example.com/releases/v2.3.1 and the build takes 45 min";
  if (n === 3) return "Ship on 2026-12-03, ticket OPS-142, config in deploy.yaml, run `npm run release`, ask @dana";
  return `question ${n}`;
}

async function converse(t: TestApp, from: number, to: number): Promise<void> {
  for (let n = from; n <= to; n++) {
    const speaker = SPEAKERS[n % 3]!;
    const reply = await t.app.runner.submit(request(question(n), speaker), new RecordingSink());
    expect(reply.status).toBe("answered");
    await t.app.summaries.idle();
  }
}

describe("the summary of what left the memory window", () => {
  let t: TestApp;
  afterEach(() => t.close());

  it("summarizes the exchanges that left the window, with their speakers, and the next prompts carry the summary and the identifiers verbatim", async () => {
    t = await startTestApp({ MEMORY_WINDOW: "5", MEMORY_SUMMARY: "on", MEMORY_SUMMARY_BATCH: "1", RATE_LIMIT_PER_USER: "100" });
    t.model.otherwise(model());
    await converse(t, 1, 30);

    const summaries = t.model.chatRequests.filter(isSummary);
    // Exchanges 1..25 left the window, one summary call after each turn that pushed one out.
    expect(summaries).toHaveLength(25);
    const first = String(summaries[0]!.body.messages[1].content);
    expect(first).toContain("Bob: question 1");
    expect(first).toContain("bot (answering Bob): answer to question 1");
    const system = String(summaries[0]!.body.messages[0].content);
    expect(system).toContain('never call anyone "the user"');
    expect(system).toMatch(/decisions/i);
    expect(system).toMatch(/open questions/i);
    expect(system).toMatch(/source/);
    // The second summary starts from the first and adds exchange 2 (Carol's), with its speaker.
    const second = String(summaries[1]!.body.messages[1].content);
    expect(second).toContain("Previous summary:\nSUMMARY after 1 exchanges");
    expect(second).toContain("Carol: The release notes are at https://example.com/releases/v2.3.1");

    // The prompt of the last turn: system prompt, summary, window (exchanges 26..30), question.
    await t.app.runner.submit(request("what did we decide?", SPEAKERS[0]), new RecordingSink());
    const last = t.model.chatRequests.filter((req) => !isSummary(req)).at(-1)!;
    const sent = contents(last);
    expect(sent[0]).toMatch(/^system: You are a helpful assistant/);
    expect(sent[1]).toMatch(/^system: Summary of earlier messages in this conversation \(\d{4}-\d\d-\d\d \d\d:\d\d to \d{4}-\d\d-\d\d \d\d:\d\d UTC\)/);
    expect(sent[1]).toContain("SUMMARY after 1 exchanges");
    for (const identifier of ["https://example.com/releases/v2.3.1", "45 min", "2026-12-03", "OPS-142", "deploy.yaml", "`npm run release`", "@dana"]) {
      expect(sent[1]).toContain(`- ${identifier} (`);
    }
    expect(sent[1]).toMatch(/- OPS-142 \(Alice, message \d+\)/);
    expect(sent.slice(2)).toEqual([
      ...[26, 27, 28, 29, 30].flatMap((n) => [`user: question ${n}`, `assistant: answer to question ${n}`]),
      "user: what did we decide?",
    ]);

    // Usage: summary calls have their own kind (the last turn pushed exchange 26 out: one more).
    await t.app.summaries.idle();
    const kinds = dbOf(t.app).prepare("SELECT kind, COUNT(*) AS n FROM turns GROUP BY kind ORDER BY kind").all();
    expect(kinds).toEqual([
      { kind: "summary", n: 26 },
      { kind: "turn", n: 31 },
    ]);
    const usage = await t.app.commands.execute({ kind: "usage_show" }, request(""), { userId: "boss", role: "admin" });
    expect(usage.text).toMatch(/By kind: .*summary 26 turns/);
    expect(usage.text).not.toContain("<@>");
  });

  it("waits for MEMORY_SUMMARY_BATCH exchanges to leave the window, then summarizes them in one call; meanwhile the prompt carries their questions", async () => {
    t = await startTestApp({ MEMORY_WINDOW: "1", MEMORY_SUMMARY: "on", MEMORY_SUMMARY_BATCH: "3", RATE_LIMIT_PER_USER: "100" });
    t.model.otherwise(model());
    // Turns 1..3 push exchanges 1 and 2 out of a one-exchange window: fewer than a batch, no call.
    await converse(t, 1, 3);
    expect(t.model.chatRequests.filter(isSummary)).toHaveLength(0);
    const waiting = contents(t.model.chatRequests.filter((req) => !isSummary(req)).at(-1)!);
    expect(waiting[1]).toMatch(/^system: Earlier questions not summarized yet \(newest first\):\n- \[.*\] Bob: question 1$/);
    // Turn 4 pushes the third out: one call with all three, then the prompt carries its summary.
    await converse(t, 4, 4);
    const summaries = t.model.chatRequests.filter(isSummary);
    expect(summaries.map(countExchanges)).toEqual([3]);
    await converse(t, 5, 5);
    const after = contents(t.model.chatRequests.filter((req) => !isSummary(req)).at(-1)!);
    expect(after[1]).toContain("SUMMARY after 3 exchanges");
    expect(after[1]).not.toContain("Earlier questions not summarized yet");
    const shown = await t.app.commands.execute({ kind: "memory_show" }, request(""), { userId: "u-alice", role: "member" });
    expect(shown.text).toMatch(/1 earlier exchange\(s\) wait to be summarized\._/);
  });

  it("keeps the exchanges when the summary fails, retries later, and meanwhile gives the prompt their questions verbatim, newest first", async () => {
    t = await startTestApp({ MEMORY_WINDOW: "2", MEMORY_SUMMARY: "on", MEMORY_SUMMARY_BATCH: "1" });
    t.model.otherwise(model(() => ({ kind: "http", status: 500, body: { error: { message: "summarizer down" } } })));
    await converse(t, 1, 4);
    await t.app.runner.submit(request("and now?", SPEAKERS[0]), new RecordingSink());

    const last = contents(t.model.chatRequests.filter((req) => !isSummary(req)).at(-1)!);
    expect(last[1]).toMatch(
      /^system: Earlier questions not summarized yet \(newest first\):\n- \[[\d-]+ [\d:]+\] Carol: The release notes are at https:\/\/example\.com\/releases\/v2\.3\.1 and the build takes 45 min\n- \[[\d-]+ [\d:]+\] Bob: question 1$/,
    );
    // Only the first failure called the model: the cooldown holds the next tries back.
    expect(t.model.chatRequests.filter(isSummary)).toHaveLength(1);
    const row = dbOf(t.app).prepare("SELECT failures, retry_at, covered_to, summary FROM conversation_summaries").get() as any;
    expect(row.failures).toBe(1);
    expect(row.summary).toBe("");
    expect(row.covered_to).toBe(0);
    expect(row.retry_at).toBeGreaterThan(Date.now() + 50_000);
    // Nothing was lost: every message is still stored.
    expect(dbOf(t.app).prepare("SELECT COUNT(*) FROM messages").pluck().get()).toBe(10);
    const shown = await t.app.commands.execute({ kind: "memory_show" }, request(""), { userId: "u-alice", role: "member" });
    expect(shown.text).toMatch(/3 earlier exchange\(s\) wait to be summarized \(the last attempt failed; next try in \d+ minutes?\)/);
  });

  it("leaves nothing behind once a summary call settled: no signal or timer waits out the call's time limit", async () => {
    t = await startTestApp({ MEMORY_WINDOW: "1", MEMORY_SUMMARY: "on", MEMORY_SUMMARY_BATCH: "1", RATE_LIMIT_PER_USER: "100" });
    t.model.otherwise(model());
    await converse(t, 1, 2);
    const before = queryObjects(AbortSignal, { format: "count" });
    await converse(t, 3, 32);
    expect(t.model.chatRequests.filter(isSummary).length).toBeGreaterThanOrEqual(30);
    // a signal left for each of those 30 calls (AbortSignal.timeout's, alive for its minute) would show here
    expect(queryObjects(AbortSignal, { format: "count" }) - before).toBeLessThan(10);
  });

  it("posts the answer while the summary call is still held by the model", async () => {
    t = await startTestApp({ MEMORY_WINDOW: "1", MEMORY_SUMMARY: "on", MEMORY_SUMMARY_BATCH: "1" });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let summaryAsked = false;
    t.model.otherwise(
      model(async () => {
        summaryAsked = true;
        await held;
        return { kind: "message", content: "SUMMARY: late" };
      }),
    );
    await t.app.runner.submit(request("first"), new RecordingSink());
    const second = new RecordingSink();
    const reply = await t.app.runner.submit(request("second"), second);
    expect(reply.text).toBe("answer to second");
    expect(second.replies.map((r) => r.text)).toEqual(["answer to second"]);
    // A third turn is answered too while the summary is held.
    for (let i = 0; i < 200 && !summaryAsked; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(summaryAsked).toBe(true);
    expect((await t.app.runner.submit(request("third"), new RecordingSink())).text).toBe("answer to third");
    release();
    await t.app.summaries.idle();
    const row = dbOf(t.app).prepare("SELECT summary FROM conversation_summaries").get() as any;
    expect(row.summary).toBe("SUMMARY: late");
  });

  it("shows the summary, the identifier index (with its age) and the window, and /memory clear forgets all three", async () => {
    t = await startTestApp({ MEMORY_WINDOW: "2", MEMORY_SUMMARY: "on", MEMORY_SUMMARY_BATCH: "1" });
    t.model.otherwise(model());
    await converse(t, 1, 4);
    const member = { userId: "u-alice", role: "member" as const };
    const shown = (await t.app.commands.execute({ kind: "memory_show" }, request(""), member)).text;
    expect(shown).toMatch(/\*\*Summary of earlier messages\*\* \(.* UTC\), updated less than a minute ago:\nSUMMARY after 1 exchanges/);
    expect(shown).toContain("**Identifier index**");
    expect(shown).toMatch(/- https:\/\/example\.com\/releases\/v2\.3\.1 \(Carol, message \d+\)/);
    expect(shown).toContain("I remember the last 2 exchange(s) here:");

    const cleared = await t.app.commands.execute({ kind: "memory_clear" }, request(""), { userId: "mod", role: "moderator" });
    expect(cleared.text).toContain("summary");
    expect((await t.app.commands.execute({ kind: "memory_show" }, request(""), member)).text).toBe("I don't remember anything of this conversation yet.");
    await t.app.runner.submit(request("fresh start"), new RecordingSink());
    expect(contents(t.model.chatRequests.filter((req) => !isSummary(req)).at(-1)!).slice(1)).toEqual(["user: fresh start"]);
  });

  it("is off with MEMORY_SUMMARY=off, and per workspace or channel by the settings commands", async () => {
    t = await startTestApp({ MEMORY_WINDOW: "1", MEMORY_SUMMARY: "on", MEMORY_SUMMARY_BATCH: "1" });
    t.model.otherwise(model());
    const admin = { userId: "boss", role: "admin" as const };
    await t.app.commands.execute({ kind: "settings_memory_summary", enabled: false }, request(""), admin);
    await converse(t, 1, 3);
    expect(t.model.chatRequests.filter(isSummary)).toHaveLength(0);
    await t.app.commands.execute({ kind: "channel_memory_summary", state: "on" }, request(""), admin);
    await converse(t, 4, 4);
    expect(t.model.chatRequests.filter(isSummary)).toHaveLength(1);
    const denied = await t.app.commands.execute({ kind: "channel_memory_summary", state: "off" }, request(""), { userId: "u1", role: "member" });
    expect(denied.ok).toBe(false);
  });

  it("makes no summary for a workspace that spent its daily budget (the exchanges wait)", async () => {
    // Each call costs 15 tokens (the fake's usage): the second turn is admitted at 15 and brings the day to 30, the budget.
    t = await startTestApp({ MEMORY_WINDOW: "1", MEMORY_SUMMARY: "on", MEMORY_SUMMARY_BATCH: "1", DAILY_TOKEN_BUDGET: "30" });
    t.model.otherwise(model());
    await converse(t, 1, 2);
    expect(t.model.chatRequests.filter(isSummary)).toHaveLength(0);
    expect(dbOf(t.app).prepare("SELECT COUNT(*) FROM conversation_summaries").pluck().get()).toBe(0);
  });

  it("charges summary calls to the channel's spending budget like the turns' calls (issue 25: everything counts)", async () => {
    t = await startTestApp({ MEMORY_WINDOW: "1", MEMORY_SUMMARY: "on", MEMORY_SUMMARY_BATCH: "1", RATE_LIMIT_PER_USER: "100" });
    t.model.otherwise(model());
    const admin = { userId: "u1", role: "admin" as const };
    const set = await t.app.commands.execute({ kind: "settings_budget", scope: "channel", period: "day", amount: "1000000" }, request(""), admin);
    expect(set.ok).toBe(true);
    await converse(t, 1, 3);
    expect(t.model.chatRequests.filter(isSummary).length).toBeGreaterThan(0);
    // The fake model reports 15 tokens for every call: turns' and summaries' alike.
    const shown = await t.app.commands.execute({ kind: "settings_show" }, request(""), admin);
    expect(shown.text).toContain(`${(15 * t.model.chatRequests.length).toLocaleString("en-US")} tokens of 1,000,000 tokens used`);
  });

  it("reads the summary's settings commands in their text form (Slack, the terminal)", () => {
    expect(parseCommandText("settings memory-summary off")).toEqual({ kind: "settings_memory_summary", enabled: false });
    expect(parseCommandText("/settings memory-summary on")).toEqual({ kind: "settings_memory_summary", enabled: true });
    expect(parseCommandText("settings channel memory-summary default")).toEqual({ kind: "channel_memory_summary", state: "default" });
    expect(parseCommandText("settings channel memory-summary maybe")).toBeUndefined();
  });
});

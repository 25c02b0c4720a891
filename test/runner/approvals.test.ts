import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import type { ApprovalOutcome, ApprovalPress, ApprovalPrompt } from "../../src/contract/approvals.js";
import { parseCommandText } from "../../src/runner/commands/command-text.js";
import { BotMetrics } from "../../src/ops/metrics.js";
import { defineTool } from "../../src/tools/define-tool.js";
import { reply, type RecordedRequest } from "../fakes/fake-openai.js";
import { dbOf, RecordingSink, request, startTestApp, type TestApp } from "../support/test-app.js";

const admin = { userId: "boss", role: "admin" as const };

/** A view that shows requests for approval (as a platform with buttons would) and remembers how they ended. */
class ApprovingSink extends RecordingSink {
  readonly prompts: ApprovalPrompt[] = [];
  readonly closed: ApprovalOutcome[] = [];
  private shown?: () => void;
  readonly asked = new Promise<void>((resolve) => (this.shown = resolve));

  async askApproval(prompt: ApprovalPrompt): Promise<boolean> {
    this.prompts.push(prompt);
    this.shown!();
    return true;
  }

  async closeApproval(_prompt: ApprovalPrompt, outcome: ApprovalOutcome): Promise<void> {
    this.closed.push(outcome);
  }
}

const lastMessage = (req: RecordedRequest) => String(req.body.messages.at(-1).content);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("approval before a tool runs, in the core", () => {
  let t: TestApp;
  const wiped: string[] = [];
  const wipe = defineTool({
    name: "wipe",
    description: "Wipes a disk.",
    parameters: z.object({ disk: z.string() }),
    run: ({ disk }) => {
      wiped.push(disk);
      return `wiped ${disk}`;
    },
  });
  afterEach(async () => {
    wiped.length = 0;
    await t.close();
  });

  const start = async (env: Record<string, string> = {}, observer?: BotMetrics) => {
    t = await startTestApp({ DEFAULT_TOOLS: "wipe", ...env }, { extraTools: [wipe], observer });
    await t.app.commands.execute(parseCommandText("tools require-approval wipe")!, request(""), admin);
    t.model.script(reply.toolCalls({ name: "wipe", args: { disk: "d1" } }), (req) => ({ kind: "message", content: `after: ${lastMessage(req)}` }));
  };
  const press = (approvalId: string, decision: ApprovalPress["decision"], actor: Partial<ApprovalPress["actor"]> = {}) =>
    t.app.approvals.decide({ platform: "test", workspaceId: "w1", approvalId, decision, actor: { id: "u1", role: "member", isBot: false, ...actor } });

  it("the turn's time limit does not cut an approval short: it stops while the request waits", async () => {
    await start({ TURN_TIMEOUT_MS: "1500" });
    const sink = new ApprovingSink();
    const turn = t.app.runner.submit(request("wipe d1"), sink);
    await sink.asked;
    // Longer than the turn may take: without the pause it would have been cut off by now.
    await sleep(2_000);
    expect(sink.replies).toEqual([]);

    expect(await press(sink.prompts[0]!.id, "approve")).toMatchObject({ kind: "decided", text: expect.stringMatching(/^✅ Approved by `u1`/) });
    expect(await turn).toMatchObject({ status: "answered", text: "after: wiped d1" });
    expect(wiped).toEqual(["d1"]);
    // the audit: who decided, and where (a press on the platform's own request)
    expect(await t.app.store.approvals.get(sink.prompts[0]!.id)).toMatchObject({ status: "approved", decidedBy: "u1", decidedVia: "test" });
  });

  it("a step's duration is the tool's own time; the wait for approval is recorded apart", async () => {
    const metrics = new BotMetrics();
    await start({}, metrics);
    const sink = new ApprovingSink();
    const turn = t.app.runner.submit(request("wipe d1"), sink);
    await sink.asked;
    // The person takes a while: at least 300 ms pass (a bounded poll, not a fixed sleep).
    const askedAt = performance.now();
    for (let i = 0; i < 200 && performance.now() - askedAt < 300; i++) await sleep(10);
    await press(sink.prompts[0]!.id, "approve");
    expect(await turn).toMatchObject({ status: "answered", text: "after: wiped d1" });

    const [step] = dbOf(t.app).prepare("SELECT duration_ms AS ran, approval_wait_ms AS waited FROM turn_steps").all() as { ran: number; waited: number }[];
    expect(step!.waited).toBeGreaterThanOrEqual(300);
    // The tool itself returns at once: its duration holds none of the wait.
    expect(step!.ran).toBeLessThan(step!.waited);
    expect(step!.ran).toBeLessThan(300);
    const shown = sink.steps.find((event) => event.type === "tool_finished");
    expect(shown).toMatchObject({ durationMs: step!.ran, approvalWaitMs: step!.waited });
    const scraped = await metrics.render();
    const sum = (name: string) => Number(new RegExp(`^${name}_sum\\{tool="wipe"\\} (\\S+)$`, "m").exec(scraped)?.[1]);
    expect(sum("bot_tool_duration_seconds")).toBeLessThan(0.3);
    expect(sum("bot_tool_approval_wait_seconds")).toBeGreaterThanOrEqual(0.3);
  });

  it("APPROVAL_BY=admin: the asker may not decide, an admin may", async () => {
    await start({ APPROVAL_BY: "admin" });
    const sink = new ApprovingSink();
    const turn = t.app.runner.submit(request("wipe d1"), sink);
    await sink.asked;
    const id = sink.prompts[0]!.id;

    expect(sink.prompts[0]!.by).toBe("admin");
    expect(await press(id, "approve")).toEqual({ kind: "private", text: "Only admins can approve or deny this." });
    expect(await press(id, "deny", { id: "boss", name: "Boss", role: "admin" })).toMatchObject({
      kind: "decided",
      text: expect.stringMatching(/^❌ Denied by `Boss`/),
    });
    expect((await turn).text).toMatch(/^after: Error: a person denied this call to wipe/);
    expect(await press(id, "approve", { id: "boss", role: "admin" })).toEqual({ kind: "private", text: "This request was already decided." });
    expect(wiped).toEqual([]);
  });

  it("shutdown does not wait for a person: the waiting turn stops at once and the request expires", async () => {
    await start();
    const sink = new ApprovingSink();
    const turn = t.app.runner.submit(request("wipe d1"), sink);
    await sink.asked;

    const stopped = t.app.runner.shutdown(20_000).then(() => "stopped");
    const graceWouldEnd = sleep(10_000).then(() => "waited for the grace");
    expect(await Promise.race([stopped, graceWouldEnd])).toBe("stopped");
    expect(await turn).toMatchObject({ status: "failed", outcome: "shutdown" });
    expect(sink.closed).toEqual([{ kind: "expired" }]);
    expect(dbOf(t.app).prepare("SELECT status FROM approvals").pluck().all()).toEqual(["expired"]);
    expect(wiped).toEqual([]);
  });

  it("after a crash (no shutdown), the next start expires the request, and a late press runs nothing", async () => {
    await start();
    const sink = new ApprovingSink();
    void t.app.runner.submit(request("wipe d1"), sink);
    await sink.asked;
    const id = sink.prompts[0]!.id;

    const restarted = await t.restart();
    const late = await restarted.approvals.decide({
      platform: "test",
      workspaceId: "w1",
      approvalId: id,
      decision: "approve",
      actor: { id: "u1", role: "member", isBot: false },
    });

    expect(late).toEqual({ kind: "private", text: expect.stringMatching(/^This request expired/) });
    expect(dbOf(restarted).prepare("SELECT status FROM approvals").pluck().all()).toEqual(["expired"]);
    expect(wiped).toEqual([]);
  });

  it("where the platform cannot ask, the call does not run and the model is told, without waiting", async () => {
    await start();
    const reply = await t.app.runner.submit(request("wipe d1"), new RecordingSink());
    expect(reply.text).toMatch(/^after: Error: wipe needs a person's approval, which cannot be asked for here, so it did not run\./);
    expect(wiped).toEqual([]);
  });

  it("a press from another workspace or a bot decides nothing", async () => {
    await start();
    const sink = new ApprovingSink();
    const turn = t.app.runner.submit(request("wipe d1"), sink);
    await sink.asked;
    const id = sink.prompts[0]!.id;

    const elsewhere = await t.app.approvals.decide({
      platform: "test",
      workspaceId: "w2",
      approvalId: id,
      decision: "approve",
      actor: { id: "boss", role: "admin", isBot: false },
    });
    expect(elsewhere.kind).toBe("private");
    expect(await press(id, "approve", { id: "helper", role: "admin", isBot: true })).toMatchObject({ kind: "private" });
    expect(await press(id, "approve")).toMatchObject({ kind: "decided" });
    await turn;
    expect(wiped).toEqual(["d1"]);
  });
});

import type { Server } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { createHealthHandler, serverPort, startHealthServer } from "../../src/ops/health.js";
import { BotMetrics } from "../../src/ops/metrics.js";
import { reply, type Responder } from "../fakes/fake-openai.js";
import { startLagProbe } from "../support/lag-probe.js";
import { RecordingSink, request, startTestApp, type TestApp } from "../support/test-app.js";

/**
 * The model of the hostile conversation (channel "evil") calls the calculator with `expression`,
 * then answers "done"; every other conversation is answered after 300 ms, a normal model's pace.
 */
const hostileModel =
  (expression: string): Responder =>
  (req) => {
    const messages = req.body.messages;
    if (!messages.some((m: any) => m.content === "evil question")) return reply.delayed(300, reply.text("a normal answer"))(req);
    if (messages.at(-1).role === "tool") return reply.text("done")(req);
    return reply.toolCalls({ name: "calculator", args: { expression } })(req);
  };

describe("calculator expressions built to stall or kill the bot", () => {
  let t: TestApp;
  let health: Server | undefined;
  afterEach(async () => {
    health?.close();
    health = undefined;
    await t.close();
  });

  async function warmCalculator() {
    // the worker thread starts on first use; a warm one makes the time limits below measure the calculation
    t.model.script(reply.toolCalls({ name: "calculator", args: { expression: "6 * 7" } }), reply.text("42"));
    await t.app.runner.submit(request("warm up", { channelId: "warm" }), new RecordingSink());
  }

  it("size(resize([1],[30000,30000])) gets a clear refusal within the tool's time limit, and the process lives on", async () => {
    t = await startTestApp(); // TOOL_TIMEOUT_MS 15 s, which includes starting the worker thread on this first use
    t.model.otherwise(hostileModel("size(resize([1],[30000,30000]))"));
    const sink = new RecordingSink();
    const started = performance.now();
    const result = await t.app.runner.submit(request("evil question", { channelId: "evil" }), sink);

    expect(performance.now() - started).toBeLessThan(15_000); // the process died after 16 s and 4 GB before
    expect(result).toMatchObject({ status: "answered", text: "done" });
    expect(sink.steps.at(-1)).toMatchObject({
      type: "tool_failed",
      error: 'calculator failed: could not evaluate "size(resize([1],[30000,30000]))": the function "resize" is not available in this calculator',
    });
    expect(process.memoryUsage().heapUsed).toBeLessThan(1024 ** 3);
  });

  it("a calculation that would run for seconds is stopped at TOOL_TIMEOUT_MS while other conversations, /healthz and the event loop carry on", async () => {
    const metrics = new BotMetrics();
    t = await startTestApp({ TOOL_TIMEOUT_MS: "1000" }, { observer: metrics });
    await warmCalculator();
    health = await startHealthServer(0, createHealthHandler({ store: t.app.store, metrics, platforms: () => [] }), "127.0.0.1");
    // Not refused by name: 2^100000 as a bignumber, then a bitwise AND, computes for about 10 s.
    t.model.otherwise(hostileModel("bitAnd(bignumber(2)^100000, 3)"));

    const probe = startLagProbe();
    const evilSink = new RecordingSink();
    const evilStarted = performance.now();
    const evil = t.app.runner.submit(request("evil question", { channelId: "evil" }), evilSink);
    await new Promise((resolve) => setTimeout(resolve, 200)); // the calculation is under way
    const otherStarted = performance.now();
    const other = await t.app.runner.submit(request("a normal question", { channelId: "normal" }), new RecordingSink());
    const otherMs = performance.now() - otherStarted;
    const healthStarted = performance.now();
    const healthz = await fetch(`http://127.0.0.1:${serverPort(health)}/healthz`);
    const healthMs = performance.now() - healthStarted;
    const evilResult = await evil;
    const evilMs = performance.now() - evilStarted;
    const lagMs = probe.stop();

    expect(other).toMatchObject({ status: "answered", text: "a normal answer" });
    expect(otherMs).toBeLessThan(2_000); // 300 ms of model time; blocked for ~10 s before
    expect(healthz.status).toBe(200);
    expect(healthMs).toBeLessThan(1_000);
    expect(lagMs).toBeLessThan(200);
    expect(evilResult).toMatchObject({ status: "answered", text: "done" });
    const step = evilSink.steps.at(-1);
    expect(step).toMatchObject({ type: "tool_failed", error: "calculator took longer than 1 s and was stopped." });
    expect(step?.type === "tool_failed" && step.durationMs).toBeLessThan(3_000);
    expect(evilMs).toBeLessThan(5_000);
  });

  it("a calculation that needs gigabytes ends its worker thread, not the process, and the next one works", async () => {
    t = await startTestApp({ TOOL_TIMEOUT_MS: "20000" });
    // index assignment grows the matrix to 900 million values without calling a refused function
    t.model.otherwise(hostileModel("A = [1]; A[30000, 30000] = 1; size(A)"));
    const sink = new RecordingSink();
    const result = await t.app.runner.submit(request("evil question", { channelId: "evil" }), sink);

    expect(result).toMatchObject({ status: "answered", text: "done" });
    expect(sink.steps.at(-1)).toMatchObject({
      type: "tool_failed",
      error: "calculator failed: it needed more than 128 MB of memory and was stopped",
    });
    t.model.script(reply.toolCalls({ name: "calculator", args: { expression: "2 + 2" } }), reply.text("four"));
    const next = new RecordingSink();
    await t.app.runner.submit(request("2 + 2?", { channelId: "next" }), next);
    expect(next.steps.at(-1)).toMatchObject({ type: "tool_finished", output: "4" });
  });
});

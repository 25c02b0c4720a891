import { afterEach, describe, expect, it } from "vitest";
import { startTurnTracer, type TracingSettings } from "../../src/ops/tracing.js";
import { FakeOtlpCollector } from "../fakes/fake-otlp.js";
import { captureLogs } from "../support/log-capture.js";

/** The tracer itself, against a collector of the test's own: what a span carries with and without OTEL_TRACE_CONTENT, failures as status. */
const settings = (endpoint: string, content: boolean): TracingSettings => ({
  endpoint,
  serviceName: "agent-bot-test",
  content,
  maxQueueSize: 100,
  scheduledDelayMs: 10_000,
  exportTimeoutMs: 1_000,
  headers: "authorization=Bearer%20sesame",
});

const call = { model: "anthropic:claude-sonnet-4-5", provider: "anthropic", purpose: "turn", retry: false, afterStep: 0 } as const;

describe("the turn tracer", () => {
  let collector: FakeOtlpCollector;
  afterEach(() => collector?.close());

  async function traced(content: boolean) {
    collector = await FakeOtlpCollector.start();
    const tracer = startTurnTracer(settings(collector.url, content), captureLogs("warn").logger);
    const trace = tracer.begin({ turnId: "t1", platform: "slack", workspaceId: "T1", channelId: "C1", model: "anthropic:claude-sonnet-4-5" });
    const now = Date.now();
    trace.end({
      status: "failed",
      outcome: "llm_rate_limited",
      error: "the model said: slow down, Alice",
      modelCalls: [
        { ...call, ok: false, outcome: "rate_limited", startedAt: now, durationMs: 5 },
        { ...call, ok: true, outcome: "ok", retry: true, startedAt: now + 10, durationMs: 20, finishReason: "tool_calls", afterStep: 0 },
      ],
      steps: [{ seq: 1, tool: "lookup", input: { name: "Alice" }, startedAt: now + 31, output: "Alice is 30", durationMs: 2 }],
      usage: { promptTokens: 0, completionTokens: 0 },
    });
    // Shutdown flushes what is queued.
    await tracer.shutdown();
    return { traceId: trace.traceId, spans: collector.spans };
  }

  it("names, ids and figures only by default: failures as error status with their code", async () => {
    const { traceId, spans } = await traced(false);
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(spans.map((span) => span.name).sort()).toEqual([
      "chat claude-sonnet-4-5",
      "chat claude-sonnet-4-5",
      "execute_tool lookup",
      "invoke_agent agent-bot",
    ]);
    expect(spans.every((span) => span.traceId === traceId)).toBe(true);
    const root = spans.find((span) => span.name.startsWith("invoke_agent"))!;
    expect(root.status).toEqual({ code: 2, message: "llm_rate_limited" });
    expect(root.resource["service.name"]).toBe("agent-bot-test");
    const failed = spans.find((span) => span.attributes["error.type"] === "rate_limited")!;
    expect(failed.attributes).toMatchObject({
      "gen_ai.provider.name": "anthropic",
      "gen_ai.request.model": "claude-sonnet-4-5",
      "bot.model_call.retry": false,
    });
    expect(failed.status.code).toBe(2);
    expect(JSON.stringify(spans)).not.toContain("Alice");
    // OTEL_EXPORTER_OTLP_HEADERS, decoded
    expect(collector.authorization).toBe("Bearer sesame");
  });

  it("carries tool arguments, results and error messages with OTEL_TRACE_CONTENT", async () => {
    const { spans } = await traced(true);
    const tool = spans.find((span) => span.name === "execute_tool lookup")!;
    expect(tool.attributes).toMatchObject({ "gen_ai.tool.call.arguments": '{"name":"Alice"}', "gen_ai.tool.call.result": "Alice is 30" });
    expect(spans.find((span) => span.name.startsWith("invoke_agent"))!.status.message).toBe("the model said: slow down, Alice");
  });

  it("gives up the last spans at shutdown when the collector never answers, within its time limit", async () => {
    collector = await FakeOtlpCollector.start();
    collector.hang();
    const logs = captureLogs("warn");
    const tracer = startTurnTracer({ ...settings(collector.url, false), exportTimeoutMs: 60_000 }, logs.logger);
    tracer.begin({ turnId: "t2", platform: "slack", workspaceId: "T1", channelId: "C1", model: "m" }).end({
      ...{ status: "answered", outcome: "answer", modelCalls: [], steps: [] },
      usage: { promptTokens: 1, completionTokens: 1 },
    });
    await tracer.shutdown();
    expect(collector.requests).toBe(1);
    expect(logs.lines.map((line) => line.msg)).toContain("the trace collector did not take the last spans in time; they are dropped");
  });
});

import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { reply } from "../fakes/fake-openai.js";
import { FakeOtlpCollector, type ReceivedSpan } from "../fakes/fake-otlp.js";
import { ConsoleHarness, TOKEN } from "../console/console-harness.js";

/**
 * OpenTelemetry traces (OTEL_EXPORTER_OTLP_ENDPOINT), from the bot started as users start it, to a
 * collector of the test's own on 127.0.0.1: one trace a turn, its spans after the GenAI semantic
 * conventions, its id on the console's turn page; a collector that never answers delays nothing.
 */
const waitFor = async (what: string, ready: () => boolean, ms = 20_000) => {
  for (const deadline = Date.now() + ms; !ready(); await new Promise((resolve) => setTimeout(resolve, 20))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
  }
};

describe("OpenTelemetry traces of turns", () => {
  let h: ConsoleHarness | undefined;
  let collector: FakeOtlpCollector | undefined;
  afterEach(async () => {
    await h?.close();
    await collector?.close();
    h = undefined;
    collector = undefined;
  });

  const start = async (extra: Record<string, string> = {}) => {
    collector = await FakeOtlpCollector.start();
    h = await ConsoleHarness.start({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_BSP_SCHEDULE_DELAY: "50", ...extra } });
    return { h, collector };
  };

  it("exports a turn with a tool call as one trace: the turn's span, two model calls and the tool under it; the console shows its id", async () => {
    const { h, collector } = await start();
    h.model.script(
      reply.toolCalls({ name: "calculator", args: { expression: "6*7" } }),
      reply.text("It is 42.", { prompt_tokens: 300, completion_tokens: 20, total_tokens: 320 }),
    );
    await h.ask("what is 6*7, secretly?");
    await waitFor("the turn's four spans", () => collector.spans.length >= 4);

    const spans = collector.spans;
    expect(new Set(spans.map((span) => span.traceId)).size).toBe(1);
    const root = spans.filter((span) => span.parentSpanId === undefined);
    expect(root.map((span) => span.name)).toEqual(["invoke_agent agent-bot"]);
    const [turn] = root as [ReceivedSpan];
    expect(turn.resource["service.name"]).toBe("agent-bot");
    expect(turn.attributes).toMatchObject({ "gen_ai.operation.name": "invoke_agent", "gen_ai.request.model": "gpt-4o-mini", "bot.platform": "discord" });
    expect(turn.attributes).toMatchObject({ "bot.turn.status": "answered", "gen_ai.usage.input_tokens": 310, "gen_ai.usage.output_tokens": 25 });

    const calls = spans.filter((span) => span.attributes["gen_ai.operation.name"] === "chat").sort((a, b) => a.startMs - b.startMs);
    expect(calls.map((span) => [span.name, span.parentSpanId])).toEqual([
      ["chat gpt-4o-mini", turn.spanId],
      ["chat gpt-4o-mini", turn.spanId],
    ]);
    expect(calls.map((span) => span.attributes)).toEqual([
      expect.objectContaining({
        "gen_ai.provider.name": "openai",
        "gen_ai.system": "openai",
        "gen_ai.request.model": "gpt-4o-mini",
        "gen_ai.usage.input_tokens": 10,
        "gen_ai.usage.output_tokens": 5,
        "gen_ai.response.finish_reasons": ["tool_calls"],
      }),
      expect.objectContaining({ "gen_ai.usage.input_tokens": 300, "gen_ai.usage.output_tokens": 20, "gen_ai.response.finish_reasons": ["stop"] }),
    ]);
    const tools = spans.filter((span) => span.attributes["gen_ai.operation.name"] === "execute_tool");
    expect(tools.map((span) => [span.name, span.parentSpanId, span.attributes["gen_ai.tool.name"]])).toEqual([
      ["execute_tool calculator", turn.spanId, "calculator"],
    ]);
    // In the order they began: the call that asked for the tool, the tool, the call that answered.
    expect(tools[0]!.startMs).toBeGreaterThanOrEqual(calls[0]!.startMs);
    expect(calls[1]!.startMs).toBeGreaterThanOrEqual(tools[0]!.startMs);
    // Without OTEL_TRACE_CONTENT, nothing said is in any attribute: not the question, the arguments or the result.
    const everything = JSON.stringify(spans.map((span) => span.attributes));
    for (const said of ["secretly", "6*7", "expression", "It is 42"]) expect(everything).not.toContain(said);

    // The turn keeps the trace's id, and its page shows it.
    const [row] = h.rows<{ id: string; traceId: string }>("SELECT id, trace_id AS traceId FROM turns");
    expect(row!.traceId).toBe(turn.traceId);
    const page = await fetch(`${h.base}/turns/${row!.id}`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(await page.text()).toContain(`<code class="trace-id">${turn.traceId}</code>`);
  }, 90_000);

  it("answers while a collector that never answers holds the export, and still stops in good time", async () => {
    const { h, collector } = await start({ OTEL_BSP_EXPORT_TIMEOUT: "60000" });
    collector.hang();
    await h.ask("first question");
    await waitFor("the first export", () => collector.unanswered > 0);
    // The next turn is answered while the export of the first still waits for the collector.
    await h.ask("second question");
    expect(collector.unanswered).toBeGreaterThan(0);
    expect(h.rows<{ status: string }>("SELECT status FROM turns").map((row) => row.status)).toEqual(["answered", "answered"]);
  }, 90_000);
});

describe("without OTEL_EXPORTER_OTLP_ENDPOINT", () => {
  let h: ConsoleHarness | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await h?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    h = undefined;
  });

  /** Records every module the started bot resolves (a module hook registered with --import). */
  function loadedModules(): { env: Record<string, string>; read(): string[] } {
    dir = mkdtempSync(join(tmpdir(), "agent-bot-modules-"));
    const log = join(dir, "loaded.txt");
    writeFileSync(log, "");
    writeFileSync(
      join(dir, "hooks.mjs"),
      `import { appendFileSync } from "node:fs";
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(${JSON.stringify(log)}, resolved.url + "\\n");
  return resolved;
}`,
    );
    writeFileSync(join(dir, "register.mjs"), `import { register } from "node:module";\nregister("./hooks.mjs", import.meta.url);\n`);
    appendFileSync(log, "");
    return { env: { NODE_OPTIONS: `--import ${join(dir, "register.mjs")}` }, read: () => readFileSync(log, "utf8").split("\n").filter(Boolean) };
  }

  it("loads no OpenTelemetry package: a started bot answers a turn, and its module graph has none (with the variable set, it has)", async () => {
    const modules = loadedModules();
    h = await ConsoleHarness.start({ env: modules.env });
    await h.ask("hello?");
    const loaded = modules.read();
    expect(loaded.some((url) => url.includes("/dist/"))).toBe(true);
    expect(loaded.filter((url) => url.includes("@opentelemetry") || url.includes("tracing"))).toEqual([]);
    await h.close();
    h = undefined;

    const traced = loadedModules();
    const collector = await FakeOtlpCollector.start();
    try {
      h = await ConsoleHarness.start({ env: { ...traced.env, OTEL_EXPORTER_OTLP_ENDPOINT: collector.url } });
      await h.ask("hello?");
      expect(traced.read().some((url) => url.includes("@opentelemetry/sdk-trace-base"))).toBe(true);
    } finally {
      await h?.close();
      h = undefined;
      await collector.close();
    }
  }, 120_000);
});

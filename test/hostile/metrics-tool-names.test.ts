import { afterEach, describe, expect, it } from "vitest";
import { BotMetrics } from "../../src/ops/metrics.js";
import { displayToolName } from "../../src/text.js";
import { reply } from "../fakes/fake-openai.js";
import { RecordingSink, request, startTestApp, type TestApp } from "../support/test-app.js";

describe("a model that invents tool names", () => {
  let t: TestApp;
  afterEach(() => t.close());

  it("adds no metrics series per invented name: they are all labelled unknown", async () => {
    let app: TestApp["app"] | undefined;
    const metrics = new BotMetrics({ isKnownTool: (name) => app!.registry.has(name) });
    t = await startTestApp({ MAX_TOOL_CALLS_PER_STEP: "1001" }, { observer: metrics });
    app = t.app;
    const invented = Array.from({ length: 1_000 }, (_, i) => ({ name: `invented_${i}_${"x".repeat(200)}`, args: {} }));
    t.model.script(reply.toolCalls({ name: "circumference", args: { radius: 1 } }, ...invented), reply.text("ok"));
    await t.app.runner.submit(request("go"), new RecordingSink());

    const scrape = await metrics.render();
    expect(scrape).toContain('bot_tool_calls_total{tool="unknown",result="error"} 1000');
    expect(scrape).toContain('bot_tool_calls_total{tool="circumference",result="ok"} 1');
    expect(scrape).not.toContain("invented_");
    // The tools' series (the process's own metrics are the same size for any model)
    const toolSeries = scrape.split("\n").filter((line) => line.startsWith("bot_tool_"));
    expect(toolSeries.join("\n").length).toBeLessThan(10_000); // 3.4 MB before, 13 series per name
  });

  it("shows and labels a name in at most 64 visible characters", async () => {
    t = await startTestApp();
    const hostile = `<!channel>\u202E\u0000\n${"y".repeat(3_000)}`;
    t.model.script(reply.toolCalls({ name: hostile, args: {} }), reply.text("ok"));
    const sink = new RecordingSink();
    await t.app.runner.submit(request("go"), sink);

    const shown = sink.steps.map((step) => step.tool);
    expect(shown).toEqual([displayToolName(hostile), displayToolName(hostile)]);
    expect([...shown[0]!]).toHaveLength(64);
    expect(shown[0]).toMatch(/^<!channel>y+…$/);
    const stored = t.store.db.prepare("SELECT tool FROM turn_steps").pluck().get() as string;
    expect(stored).toBe(shown[0]);
    const lastPrompt = t.model.chatRequests[1]!.body.messages.at(-1).content as string;
    expect(lastPrompt.length).toBeLessThan(500);
  });
});

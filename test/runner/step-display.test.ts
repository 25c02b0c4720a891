import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../../src/tools/define-tool.js";
import { reply } from "../fakes/fake-openai.js";
import { RecordingSink, request, startTestApp, type TestApp } from "../support/test-app.js";

const slowTool = defineTool({
  name: "slow_lookup",
  description: "takes a while",
  parameters: z.object({ key: z.string() }),
  run: async ({ key }) => {
    await new Promise((resolve) => setTimeout(resolve, 250));
    return `value of ${key}`;
  },
});

/** A sink that, like the chat platforms, asks for quick steps to arrive once. */
class DelayedStartSink extends RecordingSink {
  readonly stepStartDelayMs = 100;
}

describe("showing tool steps to a chat platform", () => {
  let t: TestApp;
  afterEach(() => t.close());

  it("sends a quick step once, ended and with its arguments, and a slow one as started then ended", async () => {
    t = await startTestApp({ DEFAULT_TOOLS: "circumference,slow_lookup" }, { extraTools: [slowTool] });
    t.model.script(
      reply.toolCalls({ name: "circumference", args: { radius: 1 } }),
      reply.toolCalls({ name: "slow_lookup", args: { key: "k" } }),
      reply.text("done"),
    );
    const sink = new DelayedStartSink();
    await t.app.runner.submit(request("go"), sink);

    expect(sink.events.map((e) => `${e.type}${"tool" in e ? ` ${e.tool}` : ""}`)).toEqual([
      "tool_finished circumference",
      "tool_started slow_lookup",
      "tool_finished slow_lookup",
      "reply",
    ]);
    expect(sink.steps[0]).toMatchObject({ args: { radius: 1 }, output: "6.28318530718" });
    // the audit keeps both ends of every step whatever the platform was shown
    const audit = t.app.store.db.prepare("SELECT tool, input, output FROM turn_steps ORDER BY seq").all();
    expect(audit).toEqual([
      { tool: "circumference", input: '{"radius":1}', output: "6.28318530718" },
      { tool: "slow_lookup", input: '{"key":"k"}', output: "value of k" },
    ]);
  });

  it("shows every start at once to a sink that asks for no delay (the terminal)", async () => {
    t = await startTestApp();
    t.model.script(reply.toolCalls({ name: "circumference", args: { radius: 1 } }), reply.text("done"));
    const sink = new RecordingSink();
    await t.app.runner.submit(request("go"), sink);
    expect(sink.events.map((e) => e.type)).toEqual(["tool_started", "tool_finished", "reply"]);
  });
});

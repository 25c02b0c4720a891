import { afterEach, describe, expect, it } from "vitest";
import { reply } from "../fakes/fake-openai.js";
import { RecordingSink, request, startTestApp, type TestApp } from "../support/test-app.js";

describe("a model response with fifty parallel tool calls", () => {
  let t: TestApp;
  const warnings: string[] = [];
  const onWarning = (warning: Error) => warnings.push(warning.name);
  afterEach(async () => {
    process.off("warning", onWarning);
    await t.close();
  });

  it("runs and shows MAX_TOOL_CALLS_PER_STEP of them; the rest get an error observation and post nothing", async () => {
    process.on("warning", onWarning);
    t = await startTestApp();
    const calls = Array.from({ length: 50 }, (_, i) => ({ name: "circumference", args: { radius: i } }));
    t.model.script(reply.toolCalls(...calls), reply.text("done"));
    const sink = new RecordingSink();
    const result = await t.app.runner.submit(request("go"), sink);

    expect(result).toMatchObject({ status: "answered", text: "done" });
    expect(sink.steps.filter((step) => step.type === "tool_finished")).toHaveLength(8);
    expect(sink.steps).toHaveLength(16); // started and ended, 8 times; 100 before
    expect(t.store.db.prepare("SELECT COUNT(*) FROM turn_steps").pluck().get()).toBe(8);
    const toolMessages = t.model.chatRequests[1]!.body.messages.filter((m: any) => m.role === "tool");
    expect(toolMessages).toHaveLength(50); // every call is answered, as the API requires
    expect(toolMessages[7].content).toBe("43.9822971503");
    expect(toolMessages[8].content).toBe(
      "Error: too many tool calls in one step; at most 8 run, so this one did not. Call it again in a later step if you still need it.",
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings).not.toContain("MaxListenersExceededWarning");
  });
});

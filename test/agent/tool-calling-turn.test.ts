import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { reply } from "../fakes/fake-openai.js";
import { RecordingSink, request, startTestApp, type TestApp } from "../support/test-app.js";

describe("a turn with native tool calling", () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await startTestApp();
  });
  afterEach(() => t.close());

  it("calls the circumference tool, shows the step, and answers with its result", async () => {
    t.model.script(
      reply.toolCalls({ name: "circumference", args: { radius: 7.81 } }),
      (req) => {
        const toolMessage = req.body.messages.at(-1);
        return { kind: "message", content: `The circumference is ${Number(toolMessage.content).toFixed(2)}.` };
      },
    );
    const sink = new RecordingSink();
    const result = await t.app.runner.submit(request("What is the circumference of a circle of radius 7.81?"), sink);

    expect(result.status).toBe("answered");
    expect(result.text).toBe("The circumference is 49.07.");
    expect(sink.events.map((e) => e.type)).toEqual(["tool_started", "tool_finished", "reply"]);
    expect(sink.steps[0]).toMatchObject({ tool: "circumference", args: { radius: 7.81 } });
    expect(sink.steps[1]).toMatchObject({ tool: "circumference", output: "49.0716772491" });
    // the model saw the tools with JSON schemas, and the tool result came back as a tool message
    const first = t.model.chatRequests[0]!.body;
    const circumference = first.tools.find((tool: any) => tool.function.name === "circumference");
    expect(circumference.function.parameters).toMatchObject({ type: "object", properties: { radius: { type: "number" } } });
    const second = t.model.chatRequests[1]!.body.messages;
    expect(second.at(-2).tool_calls[0].function.name).toBe("circumference");
    expect(second.at(-1)).toMatchObject({ role: "tool", content: "49.0716772491" });
  });
});

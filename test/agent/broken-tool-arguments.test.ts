import { afterEach, describe, expect, it } from "vitest";
import { Agent } from "../../src/agent/agent.js";
import { ModelCatalog } from "../../src/agent/model-catalog.js";
import { openAIProvider } from "../../src/agent/providers/openai/provider.js";
import { circumferenceTool } from "../../src/tools/builtin/circumference.js";
import { FakeOpenAI, reply } from "../fakes/fake-openai.js";
import { captureLogs } from "../support/log-capture.js";
import { RecordingSink, request, startTestApp, type TestApp } from "../support/test-app.js";
import type { StepEvent } from "../../src/contract/turn-view.js";

const toolMessage = (t: TestApp, index: number) => t.model.chatRequests[index]!.body.messages.find((m: any) => m.role === "tool");

describe("native tool calls whose arguments are broken", () => {
  let t: TestApp;
  afterEach(() => t.close());

  it("repairs fenced, single-quoted arguments with a trailing comma, and runs the tool", async () => {
    t = await startTestApp();
    t.model.script(reply.toolCalls({ name: "circumference", args: null, rawArguments: "```json\n{'radius': 7.81,}\n```" }), reply.text("About 49.07."));
    const sink = new RecordingSink();
    const result = await t.app.runner.submit(request("radius 7.81?"), sink);

    expect(result.text).toBe("About 49.07.");
    expect(sink.steps[1]).toMatchObject({ type: "tool_finished", tool: "circumference", args: { radius: 7.81 }, output: "49.0716772491" });
    expect(toolMessage(t, 1).content).toBe("49.0716772491");
  });

  it("repairs arguments that only lack their closing brace, and the schema still checks them", async () => {
    t = await startTestApp();
    t.model.script(reply.toolCalls({ name: "circumference", args: null, rawArguments: '{"radius": "seven"' }), reply.text("I need a number."));
    const sink = new RecordingSink();
    await t.app.runner.submit(request("radius seven?"), sink);

    expect(sink.steps[1]).toMatchObject({ type: "tool_failed", tool: "circumference" });
    expect(toolMessage(t, 1).content).toMatch(/^Error: invalid arguments for circumference: .*radius/s);
  });

  it("tells the model precisely what is wrong when the repair would be a guess", async () => {
    t = await startTestApp();
    t.model.script(
      reply.toolCalls({ name: "circumference", args: null, rawArguments: '{"radius": 7.8' }),
      reply.toolCalls({ name: "circumference", args: { radius: 7.85 } }),
      reply.text("About 49.32."),
    );
    const sink = new RecordingSink();
    const result = await t.app.runner.submit(request("radius 7.85?"), sink);

    expect(result.text).toBe("About 49.32.");
    expect(toolMessage(t, 1).content).toBe(
      "Error: the arguments for circumference are not valid JSON (it stops on a number, as if cut short; send the whole JSON again).",
    );
    expect(sink.steps.map((step) => step.type)).toEqual(["tool_started", "tool_failed", "tool_started", "tool_finished"]);
  });
});

describe("the repair of native arguments, in the log", () => {
  let model: FakeOpenAI;
  afterEach(() => model.close());

  it("is logged at debug level with the repairs made", async () => {
    model = await FakeOpenAI.start();
    model.script(reply.toolCalls({ name: "circumference", args: null, rawArguments: "{'radius': 1,}" }), reply.text("About 6.28."));
    const logs = captureLogs("debug");
    const agent = new Agent(new ModelCatalog(new Map([["openai", openAIProvider({ baseURL: model.url, timeoutMs: 5_000 })]]), "openai"), {
      model: "fake-model",
      protocol: "tools",
      maxIterations: 3,
      earlyStopping: "force",
      toolTimeoutMs: 1_000,
      retry: { maxRetries: 0, maxDelayMs: 0 },
      maxToolCallsPerStep: 8,
    });
    const steps: StepEvent[] = [];
    const result = await agent.run({
      history: [],
      input: "radius 1?",
      tools: [circumferenceTool],
      request: { platform: "test", workspaceId: "w1", channelId: "c1", userId: "u1" },
      signal: new AbortController().signal,
      logger: logs.logger,
      onStep: (event) => steps.push(event),
    });

    expect(result.output).toBe("About 6.28.");
    expect(steps.at(-1)).toMatchObject({ type: "tool_finished", args: { radius: 1 } });
    const repaired = logs.lines.find((line) => line.msg === "repaired tool arguments");
    expect(repaired).toMatchObject({ level: 20, tool: "circumference", repairs: ["single quotes", "trailing comma"] });
  });
});

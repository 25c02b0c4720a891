import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../../src/tools/define-tool.js";
import { reply } from "../fakes/fake-openai.js";
import { RecordingSink, request, startTestApp, type TestApp } from "../support/test-app.js";

const lastMessages = (t: TestApp, index: number) => t.model.chatRequests[index]!.body.messages;

describe("a turn with native tool calling", () => {
  let t: TestApp;
  afterEach(() => t.close());

  it("calls the circumference tool, shows the step, and answers with its result", async () => {
    t = await startTestApp();
    t.model.script(reply.toolCalls({ name: "circumference", args: { radius: 7.81 } }), (req) => {
      const toolMessage = req.body.messages.at(-1);
      return { kind: "message", content: `The circumference is ${Number(toolMessage.content).toFixed(2)}.` };
    });
    const sink = new RecordingSink();
    const result = await t.app.runner.submit(request("What is the circumference of a circle of radius 7.81?"), sink);

    expect(result.status).toBe("answered");
    expect(result.text).toBe("The circumference is 49.07.");
    expect(sink.events.map((e) => e.type)).toEqual(["tool_started", "tool_finished", "reply"]);
    expect(sink.steps[0]).toMatchObject({ tool: "circumference", args: { radius: 7.81 } });
    expect(sink.steps[1]).toMatchObject({ tool: "circumference", output: "49.0716772491" });
    const circumference = t.model.chatRequests[0]!.body.tools.find((tool: any) => tool.function.name === "circumference");
    expect(circumference.function.parameters).toMatchObject({ type: "object", properties: { radius: { type: "number" } } });
    const second = lastMessages(t, 1);
    expect(second.at(-2).tool_calls[0].function.name).toBe("circumference");
    expect(second.at(-1)).toMatchObject({ role: "tool", content: "49.0716772491" });
  });

  it("runs parallel tool calls concurrently and answers them in order", async () => {
    const log: string[] = [];
    const slow = (name: string, ms: number) =>
      defineTool({
        name,
        description: `waits ${ms} ms`,
        parameters: z.object({}),
        run: async () => {
          log.push(`start ${name}`);
          await new Promise((resolve) => setTimeout(resolve, ms));
          log.push(`end ${name}`);
          return `${name} done`;
        },
      });
    // the first call is the slower one, so answering in order is not an accident of timing
    t = await startTestApp({ DEFAULT_TOOLS: "slow_a,slow_b" }, { extraTools: [slow("slow_a", 80), slow("slow_b", 10)] });
    t.model.script(reply.toolCalls({ name: "slow_a", args: {} }, { name: "slow_b", args: {} }), reply.text("both done"));
    const result = await t.app.runner.submit(request("do both"), new RecordingSink());

    expect(result.text).toBe("both done");
    expect(log).toEqual(["start slow_a", "start slow_b", "end slow_b", "end slow_a"]);
    const toolMessages = lastMessages(t, 1).filter((m: any) => m.role === "tool");
    const callIds = lastMessages(t, 1)
      .find((m: any) => m.tool_calls)
      .tool_calls.map((c: any) => c.id);
    expect(toolMessages.map((m: any) => [m.tool_call_id, m.content])).toEqual([
      [callIds[0], "slow_a done"],
      [callIds[1], "slow_b done"],
    ]);
  });

  it("tells the model about an unknown tool and carries on", async () => {
    t = await startTestApp();
    t.model.script(reply.toolCalls({ name: "teleport", args: { to: "Mars" } }), reply.text("I can't teleport."));
    const sink = new RecordingSink();
    const result = await t.app.runner.submit(request("beam me up"), sink);

    expect(result.text).toBe("I can't teleport.");
    expect(sink.steps[1]).toMatchObject({ type: "tool_failed", tool: "teleport" });
    expect(lastMessages(t, 1).at(-1).content).toMatch(/^Error: there is no tool named "teleport" available here\. Available tools: calculator/);
  });

  it("refuses a disabled tool even when the model calls it", async () => {
    t = await startTestApp();
    t.app.access.setEnabled({ platform: "test", workspaceId: "w1" }, "calculator", false, "admin");
    t.model.script(reply.toolCalls({ name: "calculator", args: { expression: "2+2" } }), reply.text("ok"));
    const sink = new RecordingSink();
    await t.app.runner.submit(request("2+2?"), sink);

    expect(t.model.toolsOffered(0)).not.toContain("calculator");
    expect(sink.steps.map((s) => s.type)).toEqual(["tool_started", "tool_failed"]);
    expect(lastMessages(t, 1).at(-1).content).toMatch(/no tool named "calculator" available here/);
  });

  it("sends bad arguments back to the model as an error it can fix", async () => {
    t = await startTestApp();
    t.model.script(
      reply.toolCalls({ name: "circumference", args: null, rawArguments: '{"radius": 7.8' }),
      reply.toolCalls({ name: "circumference", args: { radius: "seven" } }),
      reply.toolCalls({ name: "circumference", args: { radius: 7 } }),
      reply.text("About 43.98."),
    );
    const sink = new RecordingSink();
    const result = await t.app.runner.submit(request("radius 7?"), sink);

    expect(result.text).toBe("About 43.98.");
    expect(lastMessages(t, 1).at(-1).content).toMatch(/^Error: the arguments for circumference are not valid JSON/);
    expect(lastMessages(t, 2).at(-1).content).toMatch(/^Error: invalid arguments for circumference: .*radius/s);
    expect(sink.steps.map((s) => s.type)).toEqual(["tool_started", "tool_failed", "tool_started", "tool_failed", "tool_started", "tool_finished"]);
  });

  it("stops a tool that takes too long and lets the model answer anyway", async () => {
    let sawAbort = false;
    const stuck = defineTool({
      name: "stuck",
      description: "never finishes",
      parameters: z.object({}),
      run: (_args, ctx) =>
        new Promise(() => {
          ctx.signal.addEventListener("abort", () => (sawAbort = true));
        }),
    });
    t = await startTestApp({ DEFAULT_TOOLS: "stuck", TOOL_TIMEOUT_MS: "100" }, { extraTools: [stuck] });
    t.model.script(reply.toolCalls({ name: "stuck", args: {} }), reply.text("The tool timed out, sorry."));
    const sink = new RecordingSink();
    const result = await t.app.runner.submit(request("try it"), sink);

    expect(result.text).toBe("The tool timed out, sorry.");
    expect(sawAbort).toBe(true);
    expect(sink.steps[1]).toMatchObject({ type: "tool_failed", error: "stuck took longer than 100 ms and was stopped." });
  });

  it("stops a running tool when the whole turn times out, and tells the user", async () => {
    let abortReason: unknown;
    const waiting = defineTool({
      name: "waiting",
      description: "waits until it is stopped",
      parameters: z.object({}),
      run: (_args, ctx) =>
        new Promise(() => {
          ctx.signal.addEventListener("abort", () => (abortReason = ctx.signal.reason));
        }),
    });
    t = await startTestApp({ DEFAULT_TOOLS: "waiting", TURN_TIMEOUT_MS: "150", TOOL_TIMEOUT_MS: "60000" }, { extraTools: [waiting] });
    t.model.script(reply.toolCalls({ name: "waiting", args: {} }));
    const sink = new RecordingSink();
    const result = await t.app.runner.submit(request("wait for it"), sink);

    expect(result).toMatchObject({ status: "failed", outcome: "timeout" });
    expect(abortReason).toBe("timeout");
    expect(sink.steps.map((step) => step.type)).toEqual(["tool_started"]);
    expect(t.model.chatRequests).toHaveLength(1);
  });

  it("returns a return_direct tool's output as the answer without another model call", async () => {
    const direct = defineTool({
      name: "convert_fixed",
      description: "EUR to USD at a fixed rate",
      parameters: z.object({ eur: z.number() }),
      returnDirect: true,
      run: ({ eur }) => `Result of the conversion: ${eur.toFixed(2)} EUR -> ${(eur * 1.07).toFixed(2)} USD`,
    });
    t = await startTestApp({ DEFAULT_TOOLS: "convert_fixed" }, { extraTools: [direct] });
    t.model.script(reply.toolCalls({ name: "convert_fixed", args: { eur: 10.5 } }));
    const result = await t.app.runner.submit(request("10.5 euro in dollars?"), new RecordingSink());

    expect(result).toMatchObject({ outcome: "direct", text: "Result of the conversion: 10.50 EUR -> 11.24 USD" });
    expect(t.model.chatRequests).toHaveLength(1);
  });
});

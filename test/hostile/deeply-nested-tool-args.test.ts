import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../../src/tools/define-tool.js";
import { reply } from "../fakes/fake-openai.js";
import { RecordingSink, request, startTestApp, type TestApp } from "../support/test-app.js";

const DEPTH = 5_000;
/** 10 kB of arrays nested 5,000 levels deep: JSON.parse reads it, JSON.stringify overflows the stack on it. */
const deepArray = `${"[".repeat(DEPTH)}${"]".repeat(DEPTH)}`;
const deepObject = `${'{"a":'.repeat(DEPTH)}1${"}".repeat(DEPTH)}`;

/** Takes any JSON value, so that nothing in its schema stops a deep one before the bot's own checks. */
const store = defineTool({
  name: "store_value",
  description: "stores a value",
  parameters: z.object({ value: z.unknown() }),
  run: () => "stored",
});

const echo = defineTool({
  name: "echo",
  description: "echoes",
  parameters: z.object({ text: z.string() }),
  run: ({ text }) => text,
});

const TOO_DEEP = /^Error: the arguments for store_value are nested too deeply \(more than \d+ levels\)/;

describe("tool arguments nested thousands of levels deep", () => {
  let t: TestApp;
  afterEach(() => t.close());

  it("native calls: that call gets an error observation, the rest of the batch runs, the turn answers", async () => {
    t = await startTestApp({ DEFAULT_TOOLS: "store_value,echo" }, { extraTools: [store, echo] });
    t.model.script(
      reply.toolCalls(
        { name: "store_value", args: null, rawArguments: `{"value": ${deepArray}}` },
        { name: "store_value", args: null, rawArguments: deepObject },
        // double-encoded: a JSON string holding the deep object
        { name: "store_value", args: null, rawArguments: JSON.stringify(`{"value": ${deepObject}}`) },
        { name: "echo", args: { text: "still here" } },
      ),
      reply.text("done"),
    );
    const sink = new RecordingSink();
    const result = await t.app.runner.submit(request("go"), sink);

    expect(result.text).toBe("done");
    const toolMessages = t.model.chatRequests[1]!.body.messages.filter((m: any) => m.role === "tool").map((m: any) => m.content);
    expect(toolMessages).toHaveLength(4);
    for (const content of toolMessages.slice(0, 3)) expect(content).toMatch(TOO_DEEP);
    expect(toolMessages[3]).toBe("still here");
    // the steps shown and stored carry the arguments as short text, not the deep value
    const failed = sink.steps.filter((step) => step.type === "tool_failed");
    expect(failed).toHaveLength(3);
    for (const step of failed) expect(typeof step.args).toBe("string");
    const rows = t.store.db.prepare("SELECT error IS NOT NULL AS failed, length(input) AS input FROM turn_steps ORDER BY seq").all() as any[];
    expect(rows.map((row) => row.failed)).toEqual([1, 1, 1, 0]);
    for (const row of rows) expect(row.input).toBeLessThan(2_200);
  });

  it.each([
    ["an MRKL Action Input", `Thought: store it\nAction: store_value\nAction Input: {"value": ${deepArray}}`],
    ["a JSON blob", `\`\`\`json\n{"action": "store_value", "action_input": {"value": ${deepObject}}}\n\`\`\``],
    ["a call on the Action line", `Action: store_value(${deepObject})`],
  ])("text protocol, %s: the model is told the arguments are nested too deeply, and the turn goes on", async (_form, text) => {
    t = await startTestApp({ AGENT_PROTOCOL: "react", DEFAULT_TOOLS: "store_value,echo" }, { extraTools: [store, echo] });
    t.model.script(reply.text(text), reply.text("Final Answer: done"));
    const result = await t.app.runner.submit(request("go"), new RecordingSink());

    expect(result.text).toBe("done");
    expect(t.model.chatRequests[1]!.body.messages.at(-1).content).toMatch(/nested too deeply/);
  });

  it("text protocol: a Final Answer blob whose action_input is nested thousands deep goes back to the model", async () => {
    t = await startTestApp({ AGENT_PROTOCOL: "react" });
    t.model.script(reply.text(`{"action": "Final Answer", "action_input": {"a": 1, "b": ${deepArray}}}`), reply.text("Final Answer: done"));
    const result = await t.app.runner.submit(request("go"), new RecordingSink());

    expect(result.text).toBe("done");
    expect(t.model.chatRequests[1]!.body.messages.at(-1).content).toMatch(/nested too deeply/);
  });
});

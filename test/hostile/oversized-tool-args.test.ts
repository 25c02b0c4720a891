import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../../src/tools/define-tool.js";
import { reply } from "../fakes/fake-openai.js";
import { RecordingSink, request, startTestApp, type TestApp } from "../support/test-app.js";

const MB5 = 5_000_000;

/** A tool that echoes its input, and fails with it when asked to. */
const echo = defineTool({
  name: "echo",
  description: "echoes",
  parameters: z.object({ text: z.string(), fail: z.boolean().optional() }),
  run: ({ text, fail }) => {
    if (fail) throw new Error(text);
    return text;
  },
});

describe("tool arguments and outputs of megabytes", () => {
  let t: TestApp;
  afterEach(() => t.close());

  it("are shortened in the step events and in the audit, with a marker saying how long they were", async () => {
    t = await startTestApp({ DEFAULT_TOOLS: "echo" }, { extraTools: [echo] });
    t.model.script(
      reply.toolCalls({ name: "echo", args: { text: "a".repeat(MB5) } }, { name: "echo", args: { text: "b".repeat(MB5), fail: true } }),
      reply.text("done"),
    );
    const sink = new RecordingSink();
    await t.app.runner.submit(request("go"), sink);

    for (const step of sink.steps) {
      expect(typeof step.args).toBe("string");
      expect((step.args as string).length).toBeLessThan(2_100);
      expect(step.args).toMatch(/… \[shortened: 50000\d\d characters\]$/);
    }
    const ended = sink.steps.filter((step) => step.type !== "tool_started");
    expect(ended.map((step) => JSON.stringify(step).length).every((length) => length < 8_000)).toBe(true);

    const rows = t.store.db
      .prepare("SELECT length(input) AS input, length(output) AS output, length(error) AS error FROM turn_steps ORDER BY seq")
      .all() as any[];
    for (const row of rows) {
      expect(row.input).toBeLessThan(8_100); // 5 MB each before
      expect(row.output ?? row.error).toBeLessThan(8_100);
    }
    // the model, too, gets at most 4,000 characters of each result
    const toolMessages = t.model.chatRequests[1]!.body.messages.filter((m: any) => m.role === "tool");
    expect(toolMessages.map((m: any) => m.content.length).every((length: number) => length < 4_100)).toBe(true);
  });
});

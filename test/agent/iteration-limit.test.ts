import { afterEach, describe, expect, it } from "vitest";
import { reply } from "../fakes/fake-openai.js";
import { RecordingSink, request, startTestApp, type TestApp } from "../support/test-app.js";

const loopForever = reply.toolCalls({ name: "calculator", args: { expression: "1+1" } });

describe("a turn that reaches the iteration limit", () => {
  let t: TestApp;
  afterEach(() => t.close());

  it("generate: makes one last call without tools and answers from what was gathered", async () => {
    t = await startTestApp({ AGENT_MAX_ITERATIONS: "2", AGENT_EARLY_STOPPING: "generate" });
    t.model.script(loopForever, loopForever, reply.text("From what I found, 1+1 is 2."));
    const result = await t.app.runner.submit(request("keep adding"), new RecordingSink());

    expect(result).toMatchObject({ status: "answered", outcome: "iteration_limit_generated", text: "From what I found, 1+1 is 2." });
    expect(t.model.chatRequests).toHaveLength(3);
    const last = t.model.chatRequests[2]!.body;
    expect(last.tool_choice).toBe("none");
    expect(last.messages.at(-1).content).toMatch(/reached the limit of tool use/);
  });

  it("force: answers with a friendly sentence, never the raw iteration-limit text", async () => {
    t = await startTestApp({ AGENT_MAX_ITERATIONS: "2", AGENT_EARLY_STOPPING: "force" });
    t.model.otherwise(loopForever);
    const result = await t.app.runner.submit(request("keep adding"), new RecordingSink());

    expect(result.outcome).toBe("iteration_limit_forced");
    expect(result.text).toMatch(/^Sorry, I couldn't finish working that out/);
    expect(result.text).not.toMatch(/iteration limit|Agent stopped/i);
    expect(t.model.chatRequests).toHaveLength(2);
  });
});

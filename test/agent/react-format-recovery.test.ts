import { afterEach, describe, expect, it } from "vitest";
import { reply } from "../fakes/fake-openai.js";
import { RecordingSink, request, startTestApp, type TestApp } from "../support/test-app.js";

/** What a user must never see in an answer: the text protocol's own lines, or an empty quote. */
const SCAFFOLDING = /^\s*(?:Thought|Action|Action Input|Observation)\s*:|^\s*""\s*$/m;

const lastMessage = (t: TestApp, index: number) => t.model.chatRequests[index]!.body.messages.at(-1);

describe("a text-protocol turn whose model writes what cannot be read", () => {
  let t: TestApp;
  afterEach(() => t.close());

  it("sends back what was wrong with the expected format, then runs the corrected action and answers", async () => {
    t = await startTestApp({ AGENT_PROTOCOL: "react" });
    t.model.script(
      reply.text("Thought: I need the circumference.\nAction Input: 7.81"),
      reply.text('```json\n{"action": "circumference", "action_input": {"radius": 7.81}}\n```'),
      reply.text('```json\n{"action": "Final Answer", "action_input": "It is about 49.07."}\n```'),
    );
    const sink = new RecordingSink();
    const result = await t.app.runner.submit(request("circumference of a circle of radius 7.81?"), sink);

    expect(result).toMatchObject({ status: "answered", outcome: "answer", text: "It is about 49.07." });
    expect(sink.steps.map((step) => [step.type, step.tool])).toEqual([
      ["tool_started", "circumference"],
      ["tool_finished", "circumference"],
    ]);
    const correction = lastMessage(t, 1);
    expect(correction.role).toBe("user");
    expect(correction.content).toContain('Observation: your last reply could not be read: it has an "Action Input:" but no "Action:" line naming the tool.');
    expect(correction.content).toContain('```json\n{"action": "<tool name>", "action_input": {"<argument>": "<value>"}}\n```');
    // the unreadable reply stays in the history, so the model sees what it wrote
    expect(t.model.chatRequests[1]!.body.messages.at(-2)).toMatchObject({ role: "assistant", content: expect.stringContaining("Action Input: 7.81") });
    expect(lastMessage(t, 2).content).toMatch(/^Observation: 49\.07/);
    expect(sink.replies.map((r) => r.text)).toEqual(["It is about 49.07."]);
  });

  it('never answers the user with the literal "" of a Final Answer blob that has no input', async () => {
    t = await startTestApp({ AGENT_PROTOCOL: "react" });
    t.model.script(reply.text('{"action": "Final Answer"}'), reply.text('{"action": "Final Answer", "action_input": "Hello!"}'));
    const result = await t.app.runner.submit(request("hi"), new RecordingSink());

    expect(result.text).toBe("Hello!");
    const correction = lastMessage(t, 1).content;
    expect(correction).toContain('the Final Answer blob has no "action_input" text for the user');
    expect(correction).toContain('{"action": "Final Answer", "action_input": "<your answer to the user>"}');
  });

  it("counts each unreadable reply as an iteration and, with generate, answers from the last call", async () => {
    t = await startTestApp({ AGENT_PROTOCOL: "react", AGENT_MAX_ITERATIONS: "2", AGENT_EARLY_STOPPING: "generate" });
    t.model.script(
      reply.text("Thought: I should use the calculator to compute this."),
      reply.text("Action: Final Answer: 4"),
      reply.text("Final Answer: 2 + 2 is 4."),
    );
    const result = await t.app.runner.submit(request("2+2?"), new RecordingSink());

    expect(result).toMatchObject({ status: "answered", outcome: "iteration_limit_generated", text: "2 + 2 is 4." });
    expect(t.model.chatRequests).toHaveLength(3);
    expect(lastMessage(t, 1).content).toContain("it has a Thought but no Action and no Final Answer");
    expect(lastMessage(t, 2).content).toMatch(/reached the limit of tool use[\s\S]*Final Answer JSON blob/);
  });

  it("gives the friendly forced answer when the model never writes anything readable", async () => {
    t = await startTestApp({ AGENT_PROTOCOL: "react", AGENT_MAX_ITERATIONS: "3", AGENT_EARLY_STOPPING: "generate" });
    t.model.otherwise(reply.text("Thought: Do I need to use a tool? Yes\nAction Input: the weather"));
    const sink = new RecordingSink();
    const result = await t.app.runner.submit(request("weather?"), sink);

    expect(result.outcome).toBe("iteration_limit_forced");
    expect(result.text).toMatch(/^Sorry, I couldn't finish working that out/);
    expect(result.text).not.toMatch(SCAFFOLDING);
    expect(t.model.chatRequests).toHaveLength(4); // three iterations, then the one generate call
    expect(sink.steps).toEqual([]);
  });

  it("with force, stops after the iterations without another call", async () => {
    t = await startTestApp({ AGENT_PROTOCOL: "react", AGENT_MAX_ITERATIONS: "2", AGENT_EARLY_STOPPING: "force" });
    t.model.otherwise(reply.text('```json\n{"action": "calculator", "action_input": {"expression":\n```'));
    const result = await t.app.runner.submit(request("2+2?"), new RecordingSink());

    expect(result).toMatchObject({ outcome: "iteration_limit_forced" });
    expect(result.text).not.toMatch(SCAFFOLDING);
    expect(t.model.chatRequests).toHaveLength(2);
    expect(lastMessage(t, 1).content).toContain('the JSON blob could not be read: it stops after ":", before its value');
  });

  it("answers with the answer alone when the model wrote an action after it, and sends the stop sequence", async () => {
    t = await startTestApp({ AGENT_PROTOCOL: "react" });
    t.model.script(reply.text("Thought: easy\nFinal Answer: 12 * 12 is 144.\nAction: calculator\nAction Input: 12 * 12"));
    const sink = new RecordingSink();
    const result = await t.app.runner.submit(request("12*12?"), sink);

    expect(result.text).toBe("12 * 12 is 144.");
    expect(sink.steps).toEqual([]);
    expect(t.model.chatRequests[0]!.body.stop).toEqual(["\nObservation:"]);
  });
});

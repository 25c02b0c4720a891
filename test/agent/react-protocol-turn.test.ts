import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../../src/tools/define-tool.js";
import { reply } from "../fakes/fake-openai.js";
import { RecordingSink, request, startTestApp, type TestApp } from "../support/test-app.js";

describe("a turn with the text ReAct protocol", () => {
  let t: TestApp;
  afterEach(() => t.close());

  it("lists the tools in the prompt, runs the JSON-blob action, and returns the Final Answer", async () => {
    t = await startTestApp({ AGENT_PROTOCOL: "react" });
    t.model.script(
      reply.text('Thought: use the tool\n```json\n{"action": "hypotenuse", "action_input": {"adjacent_side": 3, "angle": 60}}\n```'),
      reply.text('```json\n{"action": "Final Answer", "action_input": "The hypotenuse is 6."}\n```'),
    );
    const sink = new RecordingSink();
    const result = await t.app.runner.submit(request("adjacent 3, angle 60 degrees: hypotenuse?"), sink);

    expect(result.text).toBe("The hypotenuse is 6.");
    expect(sink.steps[1]).toMatchObject({ type: "tool_finished", tool: "hypotenuse", output: "6" });
    const first = t.model.chatRequests[0]!.body;
    expect(first.tools).toBeUndefined();
    expect(first.messages[0].content).toContain("- hypotenuse: Calculates the hypotenuse");
    expect(first.messages[0].content).toContain('"action": "Final Answer"');
    expect(first.stop).toEqual(["\nObservation:"]);
    expect(t.model.chatRequests[1]!.body.messages.at(-1).content).toMatch(/^Observation: 6\n/);
  });

  it("sends unreadable output back to the model as an observation within the limit", async () => {
    t = await startTestApp({ AGENT_PROTOCOL: "react" });
    t.model.script(reply.text('```json\n{"action": "calculator", "action_input": {"expression":\n```'), reply.text("Final Answer: 4"));
    const result = await t.app.runner.submit(request("2+2"), new RecordingSink());

    expect(result.text).toBe("4");
    expect(t.model.chatRequests[1]!.body.messages.at(-1).content).toMatch(/your last reply could not be read/);
  });

  it("runs the offered tool that a class name means, with a one-string input written in braces as its text", async () => {
    const lookups: string[] = [];
    const wikipedia = defineTool({
      name: "wikipedia_search",
      description: "Looks a topic up on Wikipedia",
      parameters: z.object({ query: z.string() }),
      run: ({ query }) => {
        lookups.push(query);
        return "Ada Lovelace was a mathematician.";
      },
    });
    t = await startTestApp({ AGENT_PROTOCOL: "react", DEFAULT_TOOLS: "wikipedia_search" }, { extraTools: [wikipedia] });
    t.model.script(
      reply.text("Thought: look it up\nAction: WikipediaSearch\nAction Input: {Ada Lovelace}"),
      reply.text("Final Answer: She was a mathematician."),
    );
    const sink = new RecordingSink();
    const result = await t.app.runner.submit(request("who was Ada Lovelace?"), sink);

    expect(result.text).toBe("She was a mathematician.");
    expect(lookups).toEqual(["Ada Lovelace"]);
    expect(sink.steps[1]).toMatchObject({ type: "tool_finished", tool: "wikipedia_search" });
    expect(t.model.chatRequests[1]!.body.messages.at(-1).content).toMatch(/^Observation: Ada Lovelace was a mathematician\./);
  });
});

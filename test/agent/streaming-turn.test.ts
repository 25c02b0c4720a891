import { afterEach, describe, expect, it } from "vitest";
import { ReactAnswerStream } from "../../src/agent/react-answer-stream.js";
import { reply } from "../fakes/fake-openai.js";
import { RecordingSink, request, startTestApp, type TestApp } from "../support/test-app.js";
import type { AnswerTextEvent } from "../../src/contract/turn-view.js";

/** A view that also takes the answer's text as it arrives, as the presenter does. */
class StreamingSink extends RecordingSink {
  readonly text: AnswerTextEvent[] = [];
  answerText(event: AnswerTextEvent): void {
    this.text.push(event);
  }
  /** The text as a reader would have seen it at the end: deltas since the last retraction. */
  get shown(): string {
    const last = this.text.findLastIndex((event) => event.type === "retracted");
    return this.text
      .slice(last + 1)
      .map((event) => (event.type === "delta" ? event.text : ""))
      .join("");
  }
}

describe("a streamed turn (native tool calls)", () => {
  let t: TestApp;
  afterEach(() => t.close());

  it("hands text to the view as it arrives, assembles tool-call deltas into whole calls, and counts tokens exactly", async () => {
    t = await startTestApp();
    t.model.script(
      reply.toolCalls({ name: "circumference", args: { radius: 7.81 } }),
      reply.streamed(["The circumference ", "is about ", "49.07."], { usage: { prompt_tokens: 40, completion_tokens: 9, total_tokens: 49 } }),
    );
    const sink = new StreamingSink();
    const result = await t.app.runner.submit(request("circle?"), sink);

    expect(result).toMatchObject({ status: "answered", text: "The circumference is about 49.07." });
    expect(sink.steps[1]).toMatchObject({ type: "tool_finished", tool: "circumference", args: { radius: 7.81 }, output: "49.0716772491" });
    expect(sink.text).toEqual([
      { type: "delta", text: "The circumference " },
      { type: "delta", text: "is about " },
      { type: "delta", text: "49.07." },
    ]);
    // 15 for the first call (the fake's default usage), 49 for the second: as the stream's last chunk said
    expect(await t.app.store.usage.tokensToday(request(""))).toBe(64);
    expect(t.model.chatRequests.every((r) => r.body.stream === true && r.body.stream_options.include_usage === true)).toBe(true);
  });

  it("retracts text the model wrote before its tool calls", async () => {
    t = await startTestApp();
    t.model.script(
      () => ({ kind: "message", content: "Let me compute that.", toolCalls: [{ id: "call_a", name: "circumference", arguments: '{"radius":1}' }] }),
      reply.text("About 6.28."),
    );
    const sink = new StreamingSink();
    await t.app.runner.submit(request("circle?"), sink);

    expect(sink.text).toEqual([{ type: "delta", text: "Let me compute that." }, { type: "retracted" }, { type: "delta", text: "About 6.28." }]);
    expect(sink.shown).toBe("About 6.28.");
  });

  it("retries the stream's request after a 500, as for any model call", async () => {
    t = await startTestApp({ OPENAI_MAX_RETRIES: "2" });
    t.model.script(reply.status(500, "boom", { "retry-after-ms": "10" }), reply.streamed(["Recovered."]));
    const result = await t.app.runner.submit(request("hi"), new StreamingSink());

    expect(result).toMatchObject({ status: "answered", text: "Recovered." });
    expect(t.model.chatRequests).toHaveLength(2);
  });

  it("ends a stream that stalls part-way after OPENAI_TIMEOUT_MS without a chunk, and keeps nothing in memory", async () => {
    t = await startTestApp({ OPENAI_TIMEOUT_MS: "300" });
    t.model.script(reply.streamed(["It ", "is ", "a ", "long ", "story"], { stallAfter: 2 }));
    const started = performance.now();
    const result = await t.app.runner.submit(request("story?"), new StreamingSink());

    expect(result).toMatchObject({ status: "failed", outcome: "llm_timeout" });
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(await t.app.store.conversations.window(request(""), 5, 10_000)).toEqual([]);
  });
});

describe("a streamed turn (text ReAct protocol)", () => {
  let t: TestApp;
  afterEach(() => t.close());

  it("shows only the Final Answer blob's text, and nothing of an action", async () => {
    t = await startTestApp({ AGENT_PROTOCOL: "react" });
    t.model.script(
      reply.streamed(['Thought: use the tool\n```json\n{"action": "hypotenuse", ', '"action_input": {"adjacent_side": 3, "angle": 60}}\n```']),
      reply.streamed(['```json\n{"action": "Final Answer", "action_input": "The hypo', 'tenuse is \\"6\\"."}\n```']),
    );
    const sink = new StreamingSink();
    const result = await t.app.runner.submit(request("hypotenuse?"), sink);

    expect(result.text).toBe('The hypotenuse is "6".');
    expect(sink.text).toEqual([
      { type: "delta", text: "The hypo" },
      { type: "delta", text: 'tenuse is "6".' },
    ]);
  });
});

describe("what of a text-protocol reply is shown while it arrives", () => {
  const shownOf = (...deltas: string[]) => {
    const out: string[] = [];
    const stream = new ReactAnswerStream((text) => out.push(text));
    for (const delta of deltas) stream.push(delta);
    return out.join("");
  };

  it("decodes a Final Answer blob's string as it comes, escapes split across deltas included", () => {
    expect(shownOf('{"action": "Final', ' Answer", "action_input": "a\\', "nb \\u00", "e9", ' c"}')).toBe("a\nb é c");
    expect(shownOf("```json\n", '{"action":"Final Answer","action_input":"done"}\n```')).toBe("done");
  });

  it("shows the complete lines after a leading Final Answer:, up to a line that looks like scaffolding", () => {
    expect(shownOf("Final Answer: first line\nsecond", " line\nAction: calculator\nmore")).toBe("first line\nsecond line");
  });

  it("shows nothing where only the whole reply can tell: an action, prose, reasoning, other key orders", () => {
    expect(shownOf('{"action": "calculator", "action_input": {"expression": "2+2"}}')).toBe("");
    expect(shownOf("The answer is 4, I think.\nAction: calculator")).toBe("");
    expect(shownOf("<think>Final Answer: no</think>", "Thought: hmm")).toBe("");
    expect(shownOf('{"action_input": "4", "action": "Final Answer"}')).toBe("");
  });

  it("skips closed reasoning before a Final Answer blob", () => {
    expect(shownOf("<think>2+2 is 4</think>\n", '{"action": "Final Answer", "action_input": "4"}')).toBe("4");
  });
});

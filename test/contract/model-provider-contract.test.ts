import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import type { SharedContentSource } from "../../src/contract/inbound.js";
import { defineTool } from "../../src/tools/define-tool.js";
import { reply } from "../fakes/fake-openai.js";
import { PNG_BYTES } from "../fakes/file-host.js";
import { providers, type ProviderTestApp } from "../support/provider-app.js";
import { RecordingSink, request } from "../support/test-app.js";
import type { AnswerTextEvent } from "../../src/contract/turn-view.js";

/**
 * The model seam's contract: the same scenarios, written once, on every provider (OpenAI's Chat
 * Completions and Anthropic's Messages API), each against a fake server speaking its own API.
 * What is asserted is what a user sees and what the model was sent, read through the fakes in
 * the project's terms (the question, the tools offered, the tool results), never one API's shape.
 */

/** A view that also takes the answer's text as it arrives, as the presenter does. */
class StreamingSink extends RecordingSink {
  readonly text: AnswerTextEvent[] = [];
  answerText(event: AnswerTextEvent): void {
    this.text.push(event);
  }
}

const CIRCLE = "What is the circumference of a circle of radius 7.81?";

describe.each(providers)("the model contract on $name", (provider) => {
  let t: ProviderTestApp | undefined;
  const start = async (env: Record<string, string> = {}, options = {}) => (t = await provider.start(env, options));
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });
  const tokensToday = () => t!.app.store.usage.tokensToday(request(""));

  it("answers a plain question, and records the tokens the provider reported", async () => {
    const t = await start({ STREAM_ANSWERS: "false" });
    t.model.script(reply.text("Hello, Alice.", { prompt_tokens: 21, completion_tokens: 4, total_tokens: 25 }));
    const result = await t.app.runner.submit(request("hello?"), new RecordingSink());

    expect(result).toMatchObject({ status: "answered", text: "Hello, Alice." });
    expect(t.model.question(0)).toEqual({ text: "hello?", images: [] });
    expect(await tokensToday()).toBe(25);
  });

  it("streams an answer to the view as it arrives, and counts the stream's tokens", async () => {
    const t = await start();
    t.model.script(reply.streamed(["The answer ", "is ", "4."], { usage: { prompt_tokens: 40, completion_tokens: 9, total_tokens: 49 } }));
    const sink = new StreamingSink();
    const result = await t.app.runner.submit(request("2+2?"), sink);

    expect(result).toMatchObject({ status: "answered", text: "The answer is 4." });
    expect(sink.text).toEqual([
      { type: "delta", text: "The answer " },
      { type: "delta", text: "is " },
      { type: "delta", text: "4." },
    ]);
    expect(t.model.chatRequests[0]!.body.stream).toBe(true);
    expect(await tokensToday()).toBe(49);
  });

  it.each([
    ["whole", false],
    ["streamed", true],
  ])("calls a tool (%s), shows the step, sends its result back under the call's id, and answers", async (_how, streamed) => {
    const t = await start();
    t.model.script(reply.toolCalls({ name: "circumference", args: { radius: 7.81 } }), reply.text("The circumference is about 49.07."));
    // a view that takes the answer's text as it arrives makes the model calls stream
    const sink = streamed ? new StreamingSink() : new RecordingSink();
    const result = await t.app.runner.submit(request(CIRCLE), sink);

    expect(result).toMatchObject({ status: "answered", text: "The circumference is about 49.07." });
    expect(t.model.chatRequests.map((recorded) => recorded.body.stream === true)).toEqual([streamed, streamed]);
    expect(sink.steps.map((step) => step.type)).toEqual(["tool_started", "tool_finished"]);
    expect(sink.steps[1]).toMatchObject({ tool: "circumference", args: { radius: 7.81 }, output: "49.0716772491" });
    expect(t.model.toolsOffered(0)).toContain("circumference");
    const [callId] = t.model.toolCallIds(1);
    expect(t.model.toolResults(1)).toEqual([{ callId, content: "49.0716772491" }]);
    // both model calls counted, 15 tokens each (the fakes' default usage)
    expect(await tokensToday()).toBe(30);
  });

  it("runs parallel tool calls at once and sends their results back in order", async () => {
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
    const t = await start({ DEFAULT_TOOLS: "slow_a,slow_b" }, { extraTools: [slow("slow_a", 80), slow("slow_b", 10)] });
    t.model.script(reply.toolCalls({ name: "slow_a", args: {} }, { name: "slow_b", args: {} }), reply.text("both done"));
    const result = await t.app.runner.submit(request("do both"), new RecordingSink());

    expect(result.text).toBe("both done");
    expect(log).toEqual(["start slow_a", "start slow_b", "end slow_b", "end slow_a"]);
    const ids = t.model.toolCallIds(1);
    expect(ids).toHaveLength(2);
    expect(t.model.toolResults(1)).toEqual([
      { callId: ids[0], content: "slow_a done" },
      { callId: ids[1], content: "slow_b done" },
    ]);
  });

  it("shows the model an image sent with the question, as its bytes", async () => {
    const t = await start({ VISION: "on" });
    t.model.script(reply.text("A very small cat."));
    const source: SharedContentSource = { fetchFile: async () => ({ bytes: PNG_BYTES, truncated: false }) };
    const shared = { location: { channelId: "c1" }, attachments: [{ name: "cat.png", contentType: "image/png", size: PNG_BYTES.length }], source };
    const result = await t.app.runner.submit(request("what is this?", { shared }), new RecordingSink());

    expect(result.text).toBe("A very small cat.");
    expect(t.model.question(0).images).toEqual([{ mediaType: "image/png", bytes: PNG_BYTES }]);
    expect(t.model.question(0).text).toMatch(/^what is this\?/);
  });

  it("retries a rate-limited call after the Retry-After the provider asked for, then answers", async () => {
    const t = await start({ OPENAI_MAX_RETRIES: "2" });
    t.model.script(reply.status(429, "slow down", { "retry-after": "0.05" }), reply.text("Recovered."));
    const result = await t.app.runner.submit(request("hi"), new RecordingSink());

    expect(result).toMatchObject({ status: "answered", text: "Recovered." });
    expect(t.model.chatRequests).toHaveLength(2);
  });

  it.each([
    ["whole", "false"],
    ["streamed", "true"],
  ])("gives up on a model that sends no response within OPENAI_TIMEOUT_MS (%s), with a short message", async (_how, stream) => {
    const t = await start({ OPENAI_TIMEOUT_MS: "300", OPENAI_MAX_RETRIES: "0", STREAM_ANSWERS: stream });
    t.model.script(reply.hang());
    const sink = stream === "true" ? new StreamingSink() : new RecordingSink();
    const result = await t.app.runner.submit(request("anyone there?"), sink);

    expect(result).toMatchObject({ status: "failed", outcome: "llm_timeout" });
    expect(sink.replies[0]!.text).toBe("The language model took too long to answer. Please try again in a moment.");
  });

  it("ends a turn whose stream reports an error part-way with a short message, and keeps nothing in memory", async () => {
    const t = await start();
    t.model.script(reply.streamed(["It ", "is ", "a ", "long ", "story"], { errorAfter: 2 }));
    const sink = new StreamingSink();
    const result = await t.app.runner.submit(request("story?"), sink);

    expect(result).toMatchObject({ status: "failed", outcome: "llm_interrupted" });
    expect(sink.replies[0]!.text).toBe("The language model stopped answering part-way through. Please try again in a moment.");
    expect(sink.text.slice(0, 2)).toEqual([
      { type: "delta", text: "It " },
      { type: "delta", text: "is " },
    ]);
    expect(await t.app.store.conversations.window(request(""), 5, 10_000)).toEqual([]);
  });

  it("tells the user, in a short message, of a failure another attempt cannot fix, and leaves memory as it was", async () => {
    const t = await start({ OPENAI_MAX_RETRIES: "2" });
    t.model.script(reply.text("First answer."));
    await t.app.runner.submit(request("first question"), new RecordingSink());
    t.model.otherwise(reply.status(401, "invalid x-api-key: secret-detail"));

    const sink = new RecordingSink();
    const result = await t.app.runner.submit(request("second question"), sink);

    expect(result).toMatchObject({ status: "failed", outcome: "llm_auth" });
    expect(sink.replies[0]!.text).toBe("The language model refused the bot's credentials. An admin needs to check the configuration.");
    expect(t.model.chatRequests).toHaveLength(2);
    const window = await t.app.store.conversations.window(request(""), 5, 10_000);
    expect(window.map((m) => m.text)).toEqual(["first question", "First answer."]);
  });

  it.each([
    ["whole", false],
    ["streamed", true],
  ])("runs the text (ReAct) protocol (%s): plain completions that stop before an Observation", async (_how, streamed) => {
    const t = await start({ AGENT_PROTOCOL: "react" });
    t.model.script(
      reply.streamed(['```json\n{"action": "circumference", ', '"action_input": {"radius": 7.81}}\n```']),
      reply.streamed(['```json\n{"action": "Final Answer", "action_input": "About ', '49.07."}\n```']),
    );
    const sink = streamed ? new StreamingSink() : new RecordingSink();
    const result = await t.app.runner.submit(request(CIRCLE), sink);

    expect(result.text).toBe("About 49.07.");
    expect(sink.steps[1]).toMatchObject({ type: "tool_finished", tool: "circumference", output: "49.0716772491" });
    expect(t.model.chatRequests[0]!.body[provider.stopField]).toEqual(["\nObservation:"]);
    expect(t.model.chatRequests[0]!.body.stream === true).toBe(streamed);
    expect(t.model.toolsOffered(0)).toEqual([]);
    expect(t.model.question(1).text).toMatch(/^Observation: 49\.0716772491/);
    // only the Final Answer's text is shown while it arrives
    if (sink instanceof StreamingSink) expect(sink.text.map((event) => (event.type === "delta" ? event.text : "")).join("")).toBe("About 49.07.");
  });
});

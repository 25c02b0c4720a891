import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runDoctor } from "../../src/ops/doctor.js";
import { parseCommandText } from "../../src/runner/commands/command-text.js";
import { FakeAnthropic } from "../fakes/fake-anthropic.js";
import { reply } from "../fakes/fake-openai.js";
import { providers, type ProviderTestApp } from "../support/provider-app.js";
import { RecordingSink, request, startTestApp, type TestApp } from "../support/test-app.js";

/** What only the Anthropic provider (src/agent/providers/anthropic) does; what both do is in test/contract/model-provider-contract.test.ts. */
const anthropic = providers.find((provider) => provider.name === "anthropic")!;

/** A view that takes the answer's text as it arrives, so model calls stream. */
class StreamingSink extends RecordingSink {
  answerText(): void {}
}

describe("src/agent/providers/anthropic: the Messages API", () => {
  let t: ProviderTestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it("retries an overloaded (529) answer after its retry-after, then answers", async () => {
    t = await anthropic.start({ OPENAI_MAX_RETRIES: "2" });
    t.model.script(reply.status(529, "Overloaded", { "retry-after": "0.05" }), reply.text("Recovered."));
    const result = await t.app.runner.submit(request("hi"), new RecordingSink());

    expect(result).toMatchObject({ status: "answered", text: "Recovered." });
    expect(t.model.chatRequests).toHaveLength(2);
  });

  it("says the model is overloaded when the retries are spent", async () => {
    t = await anthropic.start({ OPENAI_MAX_RETRIES: "1" });
    t.model.otherwise(reply.status(529, "Overloaded: secret-detail", { "retry-after": "0" }));
    const sink = new RecordingSink();
    const result = await t.app.runner.submit(request("hi"), sink);

    expect(result).toMatchObject({ status: "failed", outcome: "llm_overloaded" });
    expect(sink.replies[0]!.text).toBe("The language model is overloaded right now. Please try again in a moment.");
    expect(t.model.chatRequests).toHaveLength(2);
  });

  it("sends the system prompt apart, the key, max_tokens, tools with their schemas, and a step's results in one user message", async () => {
    t = await anthropic.start({ ANTHROPIC_API_KEY: "sk-ant-test", ANTHROPIC_MAX_TOKENS: "1234", STREAM_ANSWERS: "false" });
    t.model.script(
      reply.toolCalls({ name: "circumference", args: { radius: 1 } }, { name: "circumference", args: { radius: 2 } }),
      reply.text("6.28 and 12.57."),
    );
    await t.app.runner.submit(request("two circles?"), new RecordingSink());

    const [first, second] = t.model.chatRequests.map((recorded) => recorded);
    // the SDK sends the key as x-api-key or as a bearer token, depending on its version
    expect(first!.headers["x-api-key"] ?? first!.headers.authorization).toMatch(/sk-ant-test$/);
    expect(first!.body).toMatchObject({ model: "claude-test", max_tokens: 1234 });
    expect(first!.body.system).toMatch(/^You are a helpful assistant/);
    expect(first!.body.messages).toEqual([{ role: "user", content: [{ type: "text", text: "two circles?" }] }]);
    const circumference = first!.body.tools.find((tool: any) => tool.name === "circumference");
    expect(circumference.input_schema).toMatchObject({ type: "object", properties: { radius: { type: "number" } } });
    const [assistant, results] = second!.body.messages.slice(-2);
    expect(assistant.role).toBe("assistant");
    expect(assistant.content.map((block: any) => [block.type, block.input])).toEqual([
      ["tool_use", { radius: 1 }],
      ["tool_use", { radius: 2 }],
    ]);
    expect(results).toEqual({
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: assistant.content[0].id, content: "6.28318530718" },
        { type: "tool_result", tool_use_id: assistant.content[1].id, content: "12.5663706144" },
      ],
    });
  });

  it("at the iteration limit, asks for a last answer with tool_choice none", async () => {
    t = await anthropic.start({ AGENT_MAX_ITERATIONS: "1", STREAM_ANSWERS: "false" });
    t.model.script(reply.toolCalls({ name: "circumference", args: { radius: 1 } }), reply.text("About 6.28."));
    const result = await t.app.runner.submit(request("circle?"), new RecordingSink());

    expect(result).toMatchObject({ text: "About 6.28.", outcome: "iteration_limit_generated" });
    expect(t.model.chatRequests[1]!.body.tool_choice).toEqual({ type: "none" });
  });

  it("ends a stream that breaks part-way with a clear message, and keeps nothing in memory", async () => {
    t = await anthropic.start();
    t.model.script(reply.streamed(["It ", "is ", "a ", "long ", "story"], { breakAfter: 2 }));
    const result = await t.app.runner.submit(request("story?"), new StreamingSink());

    expect(result).toMatchObject({ status: "failed", outcome: "llm_interrupted" });
    expect(result.text).toBe("The language model stopped answering part-way through. Please try again in a moment.");
    expect(await t.app.store.conversations.window(request(""), 5, 10_000)).toEqual([]);
  });

  it("ends a stream that stalls after OPENAI_TIMEOUT_MS without an event", async () => {
    t = await anthropic.start({ OPENAI_TIMEOUT_MS: "300" });
    t.model.script(reply.streamed(["It ", "is ", "a ", "long ", "story"], { stallAfter: 2 }));
    const result = await t.app.runner.submit(request("story?"), new StreamingSink());

    expect(result).toMatchObject({ status: "failed", outcome: "llm_timeout" });
  });
});

describe("a channel's model of another provider (OPENAI_MODELS with provider-qualified names)", () => {
  let t: TestApp | undefined;
  let claude: FakeAnthropic | undefined;
  afterEach(async () => {
    await t?.close();
    await claude?.close();
  });

  it("goes to that provider, while the other channels keep the default's", async () => {
    claude = await FakeAnthropic.start();
    t = await startTestApp({ OPENAI_MODELS: "openai:fake-model,anthropic:claude-test", ANTHROPIC_BASE_URL: claude.url, STREAM_ANSWERS: "false" });
    claude.script(reply.text("From Claude."));
    t.model.script(reply.text("From GPT."));
    const choose = await t.app.commands.execute(parseCommandText("settings channel model anthropic:claude-test")!, request("", { channelId: "c2" }), {
      userId: "boss",
      role: "admin",
    });
    expect(choose.text).toMatch(/anthropic:claude-test/);

    const there = await t.app.runner.submit(request("who are you?", { channelId: "c2" }), new RecordingSink());
    const here = await t.app.runner.submit(request("who are you?"), new RecordingSink());

    expect([there.text, here.text]).toEqual(["From Claude.", "From GPT."]);
    expect(claude.chatRequests.map((recorded) => recorded.body.model)).toEqual(["claude-test"]);
    expect(t.model.chatRequests.map((recorded) => recorded.body.model)).toEqual(["fake-model"]);
    const models = t.store.db.prepare("SELECT model FROM turns ORDER BY rowid").all() as { model: string }[];
    expect(models.map((row) => row.model)).toEqual(["anthropic:claude-test", "fake-model"]);
  });
});

describe("npm run doctor with MODEL_PROVIDER=anthropic", () => {
  it("asks for the key when there is none, and lists the models of the server when there is one", async () => {
    const dir = mkdtempSync(join(tmpdir(), "agent-bot-doctor-"));
    const claude = await FakeAnthropic.start();
    try {
      const env = { MODEL_PROVIDER: "anthropic", DATABASE_PATH: join(dir, "bot.sqlite") };
      const missing = (await runDoctor(env)).find((verdict) => verdict.item === "model");
      expect(missing).toMatchObject({ status: "fail", detail: expect.stringContaining("set ANTHROPIC_API_KEY") });

      const verdicts = await runDoctor({ ...env, ANTHROPIC_BASE_URL: claude.url, ANTHROPIC_MODEL: "claude-test" });
      expect(verdicts.find((verdict) => verdict.item === "model")).toEqual({
        item: "model",
        status: "pass",
        detail: `${claude.url} answers with 1 model(s); claude-test is available`,
      });
    } finally {
      await claude.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

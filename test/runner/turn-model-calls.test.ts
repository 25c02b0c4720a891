import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { BotMetrics } from "../../src/ops/metrics.js";
import { defineTool } from "../../src/tools/define-tool.js";
import { reply } from "../fakes/fake-openai.js";
import { RecordingSink, request, startTestApp, type TestApp } from "../support/test-app.js";

/** A tool that asks the model a side question, as a summarising tool would. */
const ponder = defineTool({
  name: "ponder",
  description: "Thinks about a word.",
  parameters: z.object({ word: z.string() }),
  run: async ({ word }, context) => `pondered: ${await context.llm(`What rhymes with ${word}?`)}`,
});

/** A view that shows the answer as it arrives, so the turn's model calls stream. */
class StreamingSink extends RecordingSink {
  answerText(): void {}
}

const callsOf = (t: TestApp, turnId: string) =>
  t.store.db
    .prepare(
      `SELECT seq, model, provider, purpose, retry, outcome, prompt_tokens AS promptTokens, completion_tokens AS completionTokens,
         duration_ms AS durationMs, first_token_ms AS firstTokenMs, started_at AS startedAt FROM turn_model_calls WHERE turn_id = ? ORDER BY seq`,
    )
    .all(turnId) as Record<string, unknown>[];

describe("a turn's model calls, recorded with it", () => {
  let t: TestApp;
  afterEach(() => t.close());

  it("keeps each request in the order it ended: a refused one, its retry, a tool's side question, the answer; the metrics count the same", async () => {
    const metrics = new BotMetrics();
    t = await startTestApp({ DEFAULT_TOOLS: "ponder", OPENAI_MAX_RETRIES: "2", OPENAI_MAX_RETRY_DELAY_MS: "10" }, { extraTools: [ponder], observer: metrics });
    t.model.script(
      reply.status(429, "slow down", { "retry-after-ms": "1" }),
      reply.toolCalls({ name: "ponder", args: { word: "moon" } }),
      reply.text("June", { prompt_tokens: 7, completion_tokens: 1, total_tokens: 8 }),
      reply.streamed(["Moon ", "rhymes with June."], { usage: { prompt_tokens: 40, completion_tokens: 6, total_tokens: 46 } }),
    );
    const before = Date.now();
    const result = await t.app.runner.submit(request("What rhymes with moon?"), new StreamingSink());
    expect(result.status).toBe("answered");

    const calls = callsOf(t, result.turnId);
    expect(calls.map(({ durationMs, firstTokenMs, startedAt, ...call }) => call)).toEqual([
      { seq: 1, model: "gpt-4o-mini", provider: "openai", purpose: "turn", retry: 0, outcome: "rate_limited", promptTokens: null, completionTokens: null },
      { seq: 2, model: "gpt-4o-mini", provider: "openai", purpose: "turn", retry: 1, outcome: "ok", promptTokens: 10, completionTokens: 5 },
      { seq: 3, model: "gpt-4o-mini", provider: "openai", purpose: "side_question", retry: 0, outcome: "ok", promptTokens: 7, completionTokens: 1 },
      { seq: 4, model: "gpt-4o-mini", provider: "openai", purpose: "turn", retry: 0, outcome: "ok", promptTokens: 40, completionTokens: 6 },
    ]);
    // Streamed calls that brought text have a time to first token; the side question did not stream.
    expect(calls[3]!.firstTokenMs).toEqual(expect.any(Number));
    expect(calls[2]!.firstTokenMs).toBeNull();
    expect(calls.every((call) => (call.startedAt as number) >= before && (call.durationMs as number) >= 0)).toBe(true);
    // The same requests the metrics saw: one place observes them.
    const text = await metrics.render();
    expect(text).toMatch(/bot_model_calls_total\{model="gpt-4o-mini",result="ok"\} 3/);
    expect(text).toMatch(/bot_model_calls_total\{model="gpt-4o-mini",result="error"\} 1/);
  });

  it("keeps the calls of a turn that failed", async () => {
    t = await startTestApp({ OPENAI_MAX_RETRIES: "0" });
    t.model.script(reply.status(500, "boom"));
    const result = await t.app.runner.submit(request("hello?"), new RecordingSink());
    expect(result.status).toBe("failed");
    expect(callsOf(t, result.turnId)).toMatchObject([{ seq: 1, purpose: "turn", retry: 0, outcome: "server_error" }]);
  });
});

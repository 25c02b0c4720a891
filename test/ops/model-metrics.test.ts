import { afterEach, describe, expect, it } from "vitest";
import { BotMetrics } from "../../src/ops/metrics.js";
import { reply } from "../fakes/fake-openai.js";
import { RecordingSink, request, startTestApp, type TestApp } from "../support/test-app.js";
import type { AnswerTextEvent } from "../../src/contract/turn-view.js";

/** A view that shows the answer as it arrives (as Discord and Slack do): the turn's model calls stream. */
class StreamingSink extends RecordingSink {
  readonly pieces: string[] = [];
  answerText(event: AnswerTextEvent): void {
    if (event.type === "delta") this.pieces.push(event.text);
  }
}

/** One sample of a scrape: the value of `name{labels}` (labels as written, in order). */
function sample(scrape: string, series: string): number | undefined {
  const line = scrape.split("\n").find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe("the model's metrics (bot_model_*)", () => {
  let t: TestApp;
  afterEach(() => t.close());

  it("times each request and its first token, and counts tokens by model and direction", async () => {
    const metrics = new BotMetrics();
    t = await startTestApp({ OPENAI_MODEL: "gpt-4o-mini" }, { observer: metrics });
    // Streamed: the first text 150 ms after the response began, the rest after it.
    t.model.script(reply.streamed(["Hel", "lo"], { delayMs: 150, usage: { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 } }));
    const sink = new StreamingSink();
    expect(await t.app.runner.submit(request("hi"), sink)).toMatchObject({ status: "answered", text: "Hello" });

    // Not streamed (no view that shows text as it comes), and then a failure.
    t.model.script(reply.text("plain", { prompt_tokens: 20, completion_tokens: 1, total_tokens: 21 }), reply.status(500, "down"));
    await t.app.runner.submit(request("again"), new RecordingSink());
    await t.app.runner.submit(request("and again"), new RecordingSink());

    const scrape = await metrics.render();
    const m = 'model="gpt-4o-mini"';
    expect(sample(scrape, `bot_model_calls_total{${m},result="ok"}`)).toBe(2);
    expect(sample(scrape, `bot_model_calls_total{${m},result="error"}`)).toBe(1);
    expect(sample(scrape, `bot_model_tokens_total{${m},direction="prompt"}`)).toBe(32);
    expect(sample(scrape, `bot_model_tokens_total{${m},direction="completion"}`)).toBe(4);
    expect(sample(scrape, `bot_model_call_duration_seconds_count{${m}}`)).toBe(3);
    // Only the streamed call has a first token; it came no sooner than the fake sent it, and before the end.
    expect(sample(scrape, `bot_model_time_to_first_token_seconds_count{${m}}`)).toBe(1);
    const firstToken = sample(scrape, `bot_model_time_to_first_token_seconds_sum{${m}}`)!;
    expect(firstToken).toBeGreaterThanOrEqual(0.15);
    expect(sample(scrape, `bot_model_time_to_first_token_seconds_bucket{le="0.1",${m}}`)).toBe(0);
    expect(sample(scrape, `bot_model_call_duration_seconds_sum{${m}}`)).toBeGreaterThan(firstToken);
  });

  it("serves the process's standard metrics as prom-client names them, and the bot's version", async () => {
    const metrics = new BotMetrics();
    t = await startTestApp({}, { observer: metrics });
    const scrape = await metrics.render();
    for (const name of [
      "process_cpu_user_seconds_total",
      "process_cpu_seconds_total",
      "process_start_time_seconds",
      "process_resident_memory_bytes",
      "nodejs_eventloop_lag_seconds",
      "nodejs_eventloop_lag_p99_seconds",
      "nodejs_gc_duration_seconds",
      "nodejs_active_handles_total",
      "nodejs_heap_size_used_bytes",
      "nodejs_version_info",
    ]) {
      expect(scrape).toContain(`# TYPE ${name} `);
    }
    expect(sample(scrape, "process_start_time_seconds")).toBeGreaterThan(1_700_000_000);
    expect(scrape).toMatch(/^bot_build_info\{version="\d+\.\d+\.\d+[^"]*"\} 1$/m);
  });
});

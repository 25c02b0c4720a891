import { afterEach, describe, expect, it } from "vitest";
import { reply } from "../fakes/fake-openai.js";
import { RecordingSink, request, startTestApp, type TestApp } from "../support/test-app.js";

describe("when the model fails", () => {
  let t: TestApp;
  afterEach(() => t.close());

  it("retries a 500 and then answers", async () => {
    t = await startTestApp({ OPENAI_MAX_RETRIES: "2" });
    // retry-after-ms keeps the SDK's backoff short in tests
    t.model.script(reply.status(500, "boom", { "retry-after-ms": "10" }), reply.text("Recovered."));
    const result = await t.app.runner.submit(request("hi"), new RecordingSink());

    expect(result).toMatchObject({ status: "answered", text: "Recovered." });
    expect(t.model.chatRequests).toHaveLength(2);
  });

  it("gives a short, clear message when retries are spent, and leaves memory as it was", async () => {
    t = await startTestApp({ OPENAI_MAX_RETRIES: "1" });
    t.model.script(reply.text("First answer."));
    await t.app.runner.submit(request("first question"), new RecordingSink());
    t.model.otherwise(reply.status(503, "overloaded: secret-internal-detail", { "retry-after-ms": "10" }));

    const sink = new RecordingSink();
    const result = await t.app.runner.submit(request("second question"), sink);

    expect(result.status).toBe("failed");
    expect(result.outcome).toBe("llm_server_error");
    expect(sink.replies[0]!.text).toBe("The language model had an internal error. Please try again in a moment.");
    expect(sink.replies[0]!.text).not.toContain("secret-internal-detail");
    const window = await t.app.store.conversations.window(request(""), 5, 10_000);
    expect(window.map((m) => m.text)).toEqual(["first question", "First answer."]);
    const turn = t.store.db.prepare("SELECT status, error FROM turns WHERE id = ?").get(result.turnId) as any;
    expect(turn.status).toBe("failed");
    expect(turn.error).toMatch(/503/);
  });

  it("says the model cannot be reached when nothing listens", async () => {
    t = await startTestApp({ OPENAI_BASE_URL: "http://127.0.0.1:9/v1", OPENAI_MAX_RETRIES: "0" });
    const result = await t.app.runner.submit(request("hello?"), new RecordingSink());

    expect(result).toMatchObject({ status: "failed", outcome: "llm_unreachable" });
    expect(result.text).toBe("I can't reach the language model right now. Please try again in a moment.");
  });

  it("stops a turn that runs past TURN_TIMEOUT_MS with a clear message", async () => {
    t = await startTestApp({ TURN_TIMEOUT_MS: "200" });
    t.model.script(reply.hang());
    const result = await t.app.runner.submit(request("slow one"), new RecordingSink());

    expect(result).toMatchObject({ status: "failed", outcome: "timeout" });
    expect(result.text).toBe("Sorry, that took longer than 200 ms, so I stopped. Please try again, or ask something simpler.");
  });
});

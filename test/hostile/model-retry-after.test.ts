import { afterEach, describe, expect, it } from "vitest";
import { reply } from "../fakes/fake-openai.js";
import { RecordingSink, request, startTestApp, type TestApp } from "../support/test-app.js";

const activeTimers = () => process.getActiveResourcesInfo().filter((resource) => resource === "Timeout").length;

describe("a model endpoint that answers 429 with Retry-After: 3600", () => {
  let t: TestApp;
  afterEach(() => t.close());

  it("does not hold the turn past TURN_TIMEOUT_MS: it ends with the timeout message and leaves no timer behind", async () => {
    t = await startTestApp({ TURN_TIMEOUT_MS: "1500", OPENAI_MAX_RETRIES: "2" });
    t.model.otherwise(reply.status(429, "slow down", { "retry-after": "3600" }));
    const timersBefore = activeTimers();
    const started = performance.now();
    const result = await t.app.runner.submit(request("hello?"), new RecordingSink());

    expect(performance.now() - started).toBeLessThan(5_000); // an hour, twice, before
    expect(result).toMatchObject({ status: "failed", outcome: "timeout" });
    expect(result.text).toBe("Sorry, that took longer than 2 seconds, so I stopped. Please try again, or ask something simpler.");
    expect(t.model.chatRequests).toHaveLength(1); // the wait before the retry (capped at 10 s) was cut by the turn's end
    // The turn's place in line may wait up to 5 ms for another transaction to carry its delete (DeferredLeaves); the retry's wait must not stay.
    for (let i = 0; i < 20 && activeTimers() > timersBefore; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(activeTimers()).toBeLessThanOrEqual(timersBefore);
  });

  it("with a short cap, retries OPENAI_MAX_RETRIES times and then says the model is rate limited", async () => {
    t = await startTestApp({ TURN_TIMEOUT_MS: "10000", OPENAI_MAX_RETRIES: "2", OPENAI_MAX_RETRY_DELAY_MS: "100" });
    t.model.otherwise(reply.status(429, "slow down", { "retry-after": "3600" }));
    const started = performance.now();
    const result = await t.app.runner.submit(request("hello?"), new RecordingSink());

    expect(performance.now() - started).toBeLessThan(5_000);
    expect(result).toMatchObject({ status: "failed", outcome: "llm_rate_limited" });
    expect(result.text).toBe("The language model is busy (rate limited). Please try again in a minute.");
    expect(t.model.chatRequests).toHaveLength(3);
  });

  it("does not hold shutdown: a turn waiting to retry is stopped once the grace period is over", async () => {
    t = await startTestApp({ TURN_TIMEOUT_MS: "120000", OPENAI_MAX_RETRIES: "2" });
    t.model.otherwise(reply.status(429, "slow down", { "retry-after": "3600" }));
    const turn = t.app.runner.submit(request("hello?"), new RecordingSink());
    while (t.model.chatRequests.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));

    const started = performance.now();
    await t.app.runner.shutdown(200);
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(await turn).toMatchObject({ status: "failed", outcome: "shutdown" });
  });
});

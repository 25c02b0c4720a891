import { afterEach, describe, expect, it } from "vitest";
import { reply } from "../fakes/fake-openai.js";
import { RecordingSink, request, startTestApp, type TestApp } from "../support/test-app.js";

describe("the per-user daily token budget", () => {
  let t: TestApp;
  afterEach(() => t.close());

  const run = async (text: string, overrides = {}) => {
    const sink = new RecordingSink();
    return { result: await t.app.runner.submit(request(text, overrides), sink), sink };
  };

  it("stops one user at DAILY_USER_TOKEN_BUDGET with one notice a minute; others and other workspaces go on", async () => {
    // Each call is checked too (its prompt must fit what remains): the budget leaves room for two turns' prompts.
    t = await startTestApp({ DAILY_USER_TOKEN_BUDGET: "3000", DAILY_TOKEN_BUDGET: "100000" });
    t.model.otherwise(reply.text("ok", { prompt_tokens: 1_000, completion_tokens: 500, total_tokens: 1_500 }));
    await run("one");
    await run("two");

    const refused = await run("three");
    const again = await run("four");
    const otherUser = await run("hello", { userId: "u2" });
    const otherWorkspace = await run("hello", { workspaceId: "w2" });

    expect(refused.result).toMatchObject({ status: "refused", outcome: "user_budget_exhausted" });
    expect(refused.sink.replies[0]!.text).toMatch(/^Your daily budget \(3,000 tokens\) is used up until \d{4}-\d\d-\d\d 00:00 UTC\.$/);
    expect(again.result).toMatchObject({ status: "ignored", outcome: "user_budget_exhausted" });
    expect(again.sink.events).toEqual([]);
    expect(otherUser.result.status).toBe("answered");
    expect(otherWorkspace.result.status).toBe("answered");
    expect(t.model.chatRequests).toHaveLength(4);
  });

  it("is unlimited by default", async () => {
    t = await startTestApp();
    t.model.otherwise(reply.text("ok", { prompt_tokens: 100_000, completion_tokens: 100_000, total_tokens: 200_000 }));
    for (const text of ["one", "two", "three"]) expect((await run(text)).result.status).toBe("answered");
  });
});

import { afterEach, describe, expect, it } from "vitest";
import { reply } from "../fakes/fake-openai.js";
import { RecordingSink, request, startTestApp, type TestApp } from "../support/test-app.js";

const echo = reply.text("ok");

describe("the per-conversation memory window", () => {
  let t: TestApp;
  afterEach(() => t.close());

  it("sends the last k exchanges and not the (k+1)-th oldest", async () => {
    t = await startTestApp({ MEMORY_WINDOW: "3" });
    t.model.otherwise((req) => ({ kind: "message", content: `answer to ${req.body.messages.at(-1).content}` }));
    for (const n of [1, 2, 3, 4]) await t.app.runner.submit(request(`question ${n}`), new RecordingSink());
    await t.app.runner.submit(request("question 5"), new RecordingSink());

    const sent = t.model.chatRequests[4]!.body.messages.map((m: any) => `${m.role}: ${m.content}`);
    expect(sent.slice(1)).toEqual([
      "user: question 2",
      "assistant: answer to question 2",
      "user: question 3",
      "assistant: answer to question 3",
      "user: question 4",
      "assistant: answer to question 4",
      "user: question 5",
    ]);
    // older messages stay stored
    const stored = t.app.store.db.prepare("SELECT COUNT(*) FROM messages").pluck().get();
    expect(stored).toBe(10);
  });

  it("keeps one huge old message from filling the context", async () => {
    t = await startTestApp({ MEMORY_WINDOW: "5", MEMORY_TOKEN_BUDGET: "100", MAX_QUESTION_CHARS: "10000" });
    t.model.otherwise(echo);
    await t.app.runner.submit(request("x".repeat(5_000)), new RecordingSink());
    await t.app.runner.submit(request("short one"), new RecordingSink());
    await t.app.runner.submit(request("now"), new RecordingSink());

    const sent = t.model.chatRequests[2]!.body.messages.slice(1);
    expect(sent.map((m: any) => m.content)).toEqual(["short one", "ok", "now"]);
  });

  it("keeps conversations apart", async () => {
    t = await startTestApp();
    t.model.otherwise(echo);
    await t.app.runner.submit(request("secret of channel one", { channelId: "one" }), new RecordingSink());
    await t.app.runner.submit(request("hello from channel two", { channelId: "two" }), new RecordingSink());
    await t.app.runner.submit(request("in a thread", { channelId: "one", threadId: "t1" }), new RecordingSink());

    const contents = (i: number) => t.model.chatRequests[i]!.body.messages.map((m: any) => m.content).join("\n");
    expect(contents(1)).not.toContain("secret of channel one");
    expect(contents(2)).not.toContain("secret of channel one");
  });

  it("forgets the window on memory clear, and remembers across a restart otherwise", async () => {
    t = await startTestApp();
    t.model.otherwise(echo);
    await t.app.runner.submit(request("remember me"), new RecordingSink());
    const restarted = t.restart();
    await restarted.runner.submit(request("still there?"), new RecordingSink());
    expect(t.model.chatRequests[1]!.body.messages.map((m: any) => m.content)).toContain("remember me");

    const cleared = await restarted.commands.execute({ kind: "memory_clear" }, request(""), { userId: "a", role: "admin" as const });
    expect(cleared.ok).toBe(true);
    await restarted.runner.submit(request("and now?"), new RecordingSink());
    expect(t.model.chatRequests[2]!.body.messages.slice(1).map((m: any) => m.content)).toEqual(["and now?"]);
  });
});

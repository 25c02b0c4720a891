import { afterEach, describe, expect, it } from "vitest";
import { reply } from "../fakes/fake-openai.js";
import { RecordingSink, request, startTestApp, type TestApp } from "../support/test-app.js";

describe("turns arriving together", () => {
  let t: TestApp;
  afterEach(() => t.close());

  it("run one after the other in one conversation, each seeing the one before", async () => {
    t = await startTestApp();
    let active = 0;
    let maxActive = 0;
    t.model.otherwise(async (req) => {
      maxActive = Math.max(maxActive, ++active);
      await new Promise((resolve) => setTimeout(resolve, 30));
      active--;
      return { kind: "message", content: `answer to ${req.body.messages.at(-1).content}` };
    });
    const sinks = [new RecordingSink(), new RecordingSink(), new RecordingSink()];
    const replies = await Promise.all(["first", "second", "third"].map((q, i) => t.app.runner.submit(request(q), sinks[i]!)));

    expect(maxActive).toBe(1);
    expect(replies.map((r) => r.text)).toEqual(["answer to first", "answer to second", "answer to third"]);
    const third = t.model.chatRequests[2]!.body.messages.map((m: any) => m.content);
    expect(third.slice(1)).toEqual(["first", "answer to first", "second", "answer to second", "third"]);
  });

  it("run at the same time in different conversations", async () => {
    t = await startTestApp();
    let active = 0;
    let maxActive = 0;
    let release!: () => void;
    const bothArrived = new Promise<void>((resolve) => (release = resolve));
    t.model.otherwise(async () => {
      maxActive = Math.max(maxActive, ++active);
      if (active === 2) release();
      await bothArrived;
      active--;
      return { kind: "message", content: "done" };
    });
    await Promise.all([
      t.app.runner.submit(request("a", { channelId: "one" }), new RecordingSink()),
      t.app.runner.submit(request("b", { channelId: "two" }), new RecordingSink()),
    ]);
    expect(maxActive).toBe(2);
  });
});

describe("stopping the runner", () => {
  let t: TestApp;
  afterEach(() => t.close());

  it("tells every running and queued turn that the bot restarted, and touches the store no more once it resolves", async () => {
    t = await startTestApp();
    t.model.otherwise(reply.hang());
    const sinks = [new RecordingSink(), new RecordingSink(), new RecordingSink()];
    const turns = ["first", "second", "third"].map((q, i) => t.app.runner.submit(request(q), sinks[i]!));
    while (t.model.chatRequests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));

    await t.app.runner.shutdown(50);
    await t.app.close();
    const replies = await Promise.all(turns);

    expect(replies.map((r) => r.outcome)).toEqual(["shutdown", "shutdown", "shutdown"]);
    expect(sinks.map((s) => s.replies[0]?.text)).toEqual(Array(3).fill("The bot restarted before I could finish this. Please ask again in a minute."));
    expect(t.model.chatRequests).toHaveLength(1);
  });
});

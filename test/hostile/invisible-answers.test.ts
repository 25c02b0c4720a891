import { afterEach, describe, expect, it } from "vitest";
import { reply } from "../fakes/fake-openai.js";
import { RecordingSink, request, startTestApp, type TestApp } from "../support/test-app.js";

describe("a model answer that shows nothing", () => {
  let t: TestApp;
  afterEach(() => t.close());

  it.each([
    ["zero-width characters", "\u200B\u200C\u200D\u2060\uFEFF"],
    ["NUL bytes", "\u0000\u0000\u0000"],
    ["control and format characters with blanks", "\u0001 \u200B\n\t\u202E\u007F"],
  ])("of only %s is not posted: the model is asked again", async (_name, invisible) => {
    t = await startTestApp();
    t.model.script(reply.text(invisible), reply.text("A real answer."));
    const result = await t.app.runner.submit(request("hi"), new RecordingSink());

    expect(result).toMatchObject({ status: "answered", text: "A real answer." });
    expect(t.model.chatRequests).toHaveLength(2);
    expect(t.model.chatRequests[1]!.body.messages.at(-1)).toMatchObject({ role: "user", content: expect.stringMatching(/empty/) });
  });

  it("loses its NUL bytes, and keeps the joiners that build emoji", async () => {
    t = await startTestApp();
    t.model.script(reply.text("A family\u0000: 👨\u200D👩\u200D👧"));
    const result = await t.app.runner.submit(request("hi"), new RecordingSink());

    expect(result.text).toBe("A family: 👨\u200D👩\u200D👧");
    const stored = (await t.app.store.conversations.window(request(""), 5, 10_000)).map((message) => message.text);
    expect(stored).toEqual(["hi", "A family: 👨\u200D👩\u200D👧"]);
  });
});

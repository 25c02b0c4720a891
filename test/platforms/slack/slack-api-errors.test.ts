import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { reply } from "../../fakes/fake-openai.js";
import { captureLogs } from "../../support/log-capture.js";
import { SlackHarness } from "../../support/slack-harness.js";

describe("Slack Web API errors", () => {
  let h: SlackHarness;
  let log: ReturnType<typeof captureLogs>;
  beforeEach(async () => {
    log = captureLogs();
    h = await SlackHarness.start({ logger: log.logger });
    h.slack.addUser({ id: "U1", name: "alice" });
  });
  afterEach(() => h.close());

  it("waits out Retry-After when Slack rate-limits a post, then posts the answer", async () => {
    h.slack.fail("chat.postMessage", { ratelimited: { retryAfterSeconds: 1 } });
    h.model.script(reply.text("Worth the wait."));
    const ts = h.slack.nextTs();
    await h.mention({ user: "U1", channel: "C1", ts, text: "hello" });
    await h.slack.waitFor(() => h.slack.thread("C1", ts).length === 1, { what: "the answer" });
    await h.idle();

    const posts = h.slack.callsTo("chat.postMessage");
    expect(posts.map((c) => c.status)).toEqual([429, 200]);
    expect(posts[1]!.at - posts[0]!.at).toBeGreaterThanOrEqual(950);
    expect(h.slack.thread("C1", ts)[0]!.text).toBe("Worth the wait.");
    expect(log.lines).toContainEqual(expect.objectContaining({ method: "chat.postMessage", retryAfterSeconds: 1, msg: expect.stringMatching(/rate-limited/) }));
  });

  it("logs not_in_channel clearly, stops posting that turn, and keeps working elsewhere", async () => {
    h.slack.fail("chat.postMessage", { error: "not_in_channel" }, { times: Infinity, when: (params) => params.channel === "C1" });
    h.model.script(reply.toolCalls({ name: "calculator", args: { expression: "1+1" } }), reply.text("2"), reply.text("Hello in C2."));
    await h.mention({ user: "U1", channel: "C1", ts: h.slack.nextTs(), text: "1+1?" });
    await h.slack.waitFor(() => h.model.chatRequests.length === 2, { what: "the first turn" });
    await h.idle();
    // the step failed to post, so the answer was not attempted in the unusable channel
    expect(h.slack.callsTo("chat.postMessage").filter((c) => c.params.channel === "C1")).toHaveLength(1);
    expect(log.lines).toContainEqual(expect.objectContaining({ level: 40, error: "not_in_channel", hint: expect.stringMatching(/invite the app/) }));

    const ts = h.slack.nextTs();
    await h.mention({ user: "U1", channel: "C2", ts, text: "hello" });
    await h.slack.waitFor(() => h.slack.thread("C2", ts).length === 1, { what: "the answer in C2" });
    expect(h.slack.thread("C2", ts)[0]!.text).toBe("Hello in C2.");
  });

  it("logs channel_not_found for a step update and still shows the result", async () => {
    h.slack.fail("chat.update", { error: "channel_not_found" });
    h.model.script(reply.toolCalls({ name: "calculator", args: { expression: "3*3" } }), reply.text("9"));
    const ts = h.slack.nextTs();
    await h.mention({ user: "U1", channel: "C1", ts, text: "3*3?" });
    await h.slack.waitFor(() => h.slack.thread("C1", ts).length === 3, { what: "step, result and answer" });
    await h.idle();
    // The streamed answer's message opens with the first step's task card, so it may sit between the step's two posts.
    const thread = h.slack.thread("C1", ts).map((m) => m.text);
    expect(thread).toHaveLength(3);
    expect(thread).toEqual(
      expect.arrayContaining([expect.stringMatching(/^🔧 `calculator`/), expect.stringMatching(/^✅ `calculator` `\{"expression":"3\*3"\}` → `9`/), "9"]),
    );
    expect(log.lines).toContainEqual(expect.objectContaining({ method: "chat.update", error: "channel_not_found" }));
  });
});

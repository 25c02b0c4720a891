import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { reply } from "../../fakes/fake-openai.js";
import { SlackHarness } from "../../support/slack-harness.js";

describe("Slack over HTTP: a mention becomes a threaded turn", () => {
  let h: SlackHarness;
  beforeEach(async () => {
    h = await SlackHarness.start();
    h.slack.addUser({ id: "U1", name: "alice" });
  });
  afterEach(() => h.close());

  it("posts each tool step, then the answer, in the mention's thread, in order", async () => {
    h.model.script(reply.toolCalls({ name: "circumference", args: { radius: 7.81 } }), reply.text("The circumference is **49.07**."));
    const ts = h.slack.nextTs();
    await h.mention({ user: "U1", channel: "C1", ts, text: "What is the circumference of a circle of radius 7.81?" });

    const thread = await h.slack.waitFor(() => (h.slack.thread("C1", ts).length >= 2 ? h.slack.thread("C1", ts) : undefined), { what: "step and answer" });
    await h.idle();
    // the model got the question without the mention token
    expect(h.model.chatRequests[0]!.body.messages.at(-1)).toMatchObject({ role: "user", content: "What is the circumference of a circle of radius 7.81?" });
    expect(thread.map((m) => m.text)).toEqual([
      expect.stringMatching(/^✅ `circumference` `\{"radius":7\.81\}` → `49\.0716772491`/),
      "The circumference is *49.07*.",
    ]);
    // the step was first posted as "running", then updated with its result
    expect(thread[0]!.versions[0]).toMatch(/^🔧 `circumference` `\{"radius":7\.81\}`/);
    expect(h.slack.topLevel("C1")).toEqual([]);
    expect(thread.every((m) => !m.broadcast)).toBe(true);
  });

  it("keeps the answer after the steps in the thread they share, even when Slack is slow to take a step", async () => {
    // Slack takes 300 ms over the step's post; the model answers at once meanwhile.
    h.slack.fail("chat.postMessage", { delayMs: 300 }, { when: (params) => String(params.text).includes("circumference") });
    h.model.script(reply.toolCalls({ name: "circumference", args: { radius: 7.81 } }), reply.text("About 49.07."));
    const ts = h.slack.nextTs();
    await h.mention({ user: "U1", channel: "C1", ts, text: "circumference of radius 7.81?" });
    await h.slack.waitFor(() => h.slack.thread("C1", ts).length >= 2, { what: "step and answer" });
    await h.idle();

    expect(h.slack.thread("C1", ts).map((m) => m.text)).toEqual([expect.stringMatching(/^✅ `circumference`/), "About 49.07."]);
  });

  it("posts a quick step once, with its result, when STEP_START_DELAY_MS holds the start back (the default)", async () => {
    await h.close();
    h = await SlackHarness.start({ env: { STEP_START_DELAY_MS: "400" } });
    h.slack.addUser({ id: "U1", name: "alice" });
    h.model.script(reply.toolCalls({ name: "circumference", args: { radius: 7.81 } }), reply.text("About 49.07."));
    const ts = h.slack.nextTs();
    await h.mention({ user: "U1", channel: "C1", ts, text: "circumference of radius 7.81?" });
    await h.slack.waitFor(() => h.slack.thread("C1", ts).length >= 2, { what: "step and answer" });
    await h.idle();

    const thread = h.slack.thread("C1", ts);
    expect(thread[0]!.text).toMatch(/^✅ `circumference` `\{"radius":7\.81\}` → `49\.0716772491`/);
    expect(thread[0]!.versions).toHaveLength(1);
    expect(h.slack.callsTo("chat.update")).toHaveLength(0);
  });

  it("gives the model the user's words, not Slack's escapes and link markup", async () => {
    h.model.script(reply.text("Yes."));
    const ts = h.slack.nextTs();
    await h.mention({ user: "U1", channel: "C1", ts, text: "is 3 &lt; 4 &amp;&amp; true? see <https://example.com|this>" });
    await h.slack.waitFor(() => h.slack.thread("C1", ts).length === 1, { what: "the answer" });
    await h.idle();
    expect(h.model.chatRequests[0]!.body.messages.at(-1).content).toBe("is 3 < 4 && true? see this (https://example.com)");
  });

  it("shows a thinking reaction on the question while the turn runs and removes it at the end", async () => {
    h.model.script(reply.delayed(300, reply.text("Done.")));
    const ts = h.slack.nextTs();
    await h.mention({ user: "U1", channel: "C1", ts, text: "hello" });
    await h.slack.waitFor(() => h.slack.reactionsOn("C1", ts).includes("hourglass_flowing_sand"), { what: "the thinking reaction" });
    await h.slack.waitFor(() => h.slack.thread("C1", ts).length === 1, { what: "the answer" });
    await h.idle();
    expect(h.slack.reactionsOn("C1", ts)).toEqual([]);
    expect(h.slack.callsTo("reactions.remove")).toHaveLength(1);
  });

  it("answers a mention inside someone's thread in that thread, as a conversation of its own", async () => {
    h.model.script(reply.text("First."), reply.text("Second."));
    const root = h.slack.nextTs();
    const inThread = h.slack.nextTs();
    await h.mention({ user: "U1", channel: "C1", ts: inThread, threadTs: root, text: "in a thread" });
    await h.slack.waitFor(() => h.slack.thread("C1", root).length === 1, { what: "the answer in the thread" });
    const top = h.slack.nextTs();
    await h.mention({ user: "U1", channel: "C1", ts: top, text: "at the top" });
    await h.slack.waitFor(() => h.slack.thread("C1", top).length === 1, { what: "the answer to the top-level mention" });
    await h.idle();
    expect(h.slack.thread("C1", root)[0]!.text).toBe("First.");
    // the top-level mention's conversation is the channel: it did not see the thread's exchange
    expect(h.model.chatRequests[1]!.body.messages.map((m: any) => m.content)).not.toContain("in a thread");
  });

  it("keeps arrival order in a channel even when the first asker's users.info is slow", async () => {
    h.slack.addUser({ id: "U2", name: "bob" });
    h.slack.fail("users.info", { delayMs: 300 }, { when: (params) => params.user === "U1" });
    h.model.otherwise((req) => ({ kind: "message", content: `re: ${req.body.messages.at(-1).content}` }));
    const first = h.slack.nextTs();
    const second = h.slack.nextTs();
    await h.mention({ user: "U1", channel: "C1", ts: first, text: "first" });
    await h.mention({ user: "U2", channel: "C1", ts: second, text: "second" });
    await h.slack.waitFor(() => h.slack.messages.length === 2, { what: "both answers" });
    await h.idle();
    expect(h.model.chatRequests.map((r) => r.body.messages.at(-1).content)).toEqual(["first", "second"]);
    expect(h.slack.thread("C1", first)[0]!.text).toBe("re: first");
  });

  it("broadcasts the answer to the channel when SLACK_BROADCAST_ANSWER is on", async () => {
    await h.close();
    h = await SlackHarness.start({ env: { SLACK_BROADCAST_ANSWER: "true" } });
    h.model.script(reply.toolCalls({ name: "calculator", args: { expression: "2+2" } }), reply.text("It is 4."));
    const ts = h.slack.nextTs();
    await h.mention({ user: "U1", channel: "C1", ts, text: "2+2?" });
    await h.slack.waitFor(() => h.slack.thread("C1", ts).length === 2, { what: "step and answer" });
    await h.idle();
    const [step, answer] = h.slack.thread("C1", ts);
    expect(step!.broadcast).toBe(false);
    expect(answer).toMatchObject({ text: "It is 4.", broadcast: true });
  });
});

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { reply } from "../../fakes/fake-openai.js";
import { SlackHarness } from "../../support/slack-harness.js";

const settle = () => new Promise((resolve) => setTimeout(resolve, 150));
const contents = (request: { body: any }) => request.body.messages.map((m: any) => m.content);

describe("Slack follow-ups in the bot's threads and direct messages", () => {
  let h: SlackHarness;
  const start = async (env: Record<string, string> = {}) => {
    h = await SlackHarness.start({ env });
    h.slack.addUser({ id: "U1", name: "alice" });
  };
  afterEach(() => h.close());

  /** A top-level mention answered in its thread; returns the thread's ts. */
  const askAtTopLevel = async (question: string, answer: string) => {
    h.model.script(reply.text(answer));
    const ts = h.slack.nextTs();
    await h.mention({ user: "U1", channel: "C1", ts, text: question });
    await h.slack.waitFor(() => h.slack.thread("C1", ts).length === 1, { what: "the answer" });
    await h.idle();
    return ts;
  };

  describe("with the default settings", () => {
    beforeEach(() => start());

    it("answers a follow-up in the bot's thread after a restart", async () => {
      const storedMessages = () => h.t.store.db.prepare("SELECT COUNT(*) FROM messages").pluck().get();
      const thread = await askAtTopLevel("My name is Alice.", "Nice to meet you, Alice.");
      // stored once (the channel's conversation); the thread's starts with it only once it is used
      expect(storedMessages()).toBe(2);
      await h.restart();
      h.model.script(reply.text("Still Alice."));
      await h.message({ user: "U1", channel: "C1", ts: h.slack.nextTs(), threadTs: thread, text: "And now?" });
      await h.slack.waitFor(() => h.slack.thread("C1", thread).length === 2, { what: "the answer after the restart" });
      await h.idle();
      expect(h.slack.thread("C1", thread)[1]!.text).toBe("Still Alice.");
      expect(contents(h.model.chatRequests[1]!)).toContain("My name is Alice.");
      expect(storedMessages()).toBe(6);
    });

    it("keeps a thread the bot joined by a mention as a conversation of its own, follow-ups included", async () => {
      const root = h.slack.nextTs();
      h.model.script(reply.text("Noted: blue."));
      await h.mention({ user: "U1", channel: "C1", ts: h.slack.nextTs(), threadTs: root, text: "My colour is blue." });
      await h.slack.waitFor(() => h.slack.thread("C1", root).length === 1, { what: "the answer" });
      await h.idle();
      h.model.script(reply.text("Blue."));
      await h.message({ user: "U1", channel: "C1", ts: h.slack.nextTs(), threadTs: root, text: "Which colour?" });
      await h.slack.waitFor(() => h.slack.thread("C1", root).length === 2, { what: "the follow-up's answer" });
      await h.idle();
      expect(contents(h.model.chatRequests[1]!)).toContain("My colour is blue.");
      const top = await askAtTopLevel("Anything?", "Nothing.");
      expect(top).toBeDefined();
      expect(contents(h.model.chatRequests[2]!)).not.toContain("My colour is blue.");
    });

    it("ignores messages in threads the bot is not part of, and channel messages without a mention", async () => {
      const root = h.slack.nextTs();
      await h.message({ user: "U1", channel: "C1", ts: h.slack.nextTs(), threadTs: root, text: "people talking" });
      await h.message({ user: "U1", channel: "C1", ts: h.slack.nextTs(), text: "just chatting" });
      await settle();
      expect(h.model.chatRequests).toHaveLength(0);
      expect(h.slack.callsTo("chat.postMessage")).toHaveLength(0);
    });

    it("answers a message mentioning the bot once, although Slack sends it as app_mention and as message", async () => {
      const thread = await askAtTopLevel("Hi", "Hello!");
      const ts = h.slack.nextTs();
      h.model.script(reply.text("Once."));
      await h.message({ user: "U1", channel: "C1", ts, threadTs: thread, text: `<@${h.slack.botUserId}> again` });
      await h.mention({ user: "U1", channel: "C1", ts, threadTs: thread, text: "again" });
      await h.slack.waitFor(() => h.slack.thread("C1", thread).length === 2, { what: "the answer" });
      await h.idle();
      await settle();
      expect(h.slack.thread("C1", thread)).toHaveLength(2);
      expect(h.model.chatRequests).toHaveLength(2);
    });

    it("answers a direct message: steps in its thread, the answer in the DM", async () => {
      h.model.script(reply.toolCalls({ name: "calculator", args: { expression: "6*7" } }), reply.text("42"));
      const ts = h.slack.nextTs();
      await h.message({ user: "U1", channel: "D1", ts, channelType: "im", text: "6*7?" });
      await h.slack.waitFor(() => h.slack.topLevel("D1").length === 1, { what: "the answer" });
      await h.idle();
      expect(h.slack.thread("D1", ts).map((m) => m.text)).toEqual([expect.stringMatching(/^✅ `calculator`/)]);
      expect(h.slack.topLevel("D1").map((m) => m.text)).toEqual(["42"]);
    });
  });

  it("ignores direct messages when SLACK_ALLOW_DMS is false", async () => {
    await start({ SLACK_ALLOW_DMS: "false" });
    await h.message({ user: "U1", channel: "D1", ts: h.slack.nextTs(), channelType: "im", text: "hello?" });
    await settle();
    expect(h.model.chatRequests).toHaveLength(0);
    expect(h.slack.callsTo("chat.postMessage")).toHaveLength(0);
  });
});

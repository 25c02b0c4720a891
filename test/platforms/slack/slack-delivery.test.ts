import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { reply } from "../../fakes/fake-openai.js";
import { appMention, eventCallback } from "../../fakes/slack/payloads.js";
import { SlackHarness } from "../../support/slack-harness.js";

const settle = () => new Promise((resolve) => setTimeout(resolve, 150));

describe("Slack over HTTP: signatures, acknowledgement and redelivered events", () => {
  let h: SlackHarness;
  beforeEach(async () => {
    h = await SlackHarness.start();
    h.slack.addUser({ id: "U1", name: "alice" });
  });
  afterEach(() => h.close());

  const mentionBody = (text: string, eventId?: string) =>
    eventCallback(appMention({ user: "U1", channel: "C1", ts: h.slack.nextTs(), text: `<@${h.slack.botUserId}> ${text}` }), { eventId });

  it("rejects a request with a bad signature with 401 and calls no model", async () => {
    const response = await h.sender.event(mentionBody("hello"), { signingSecret: "not-the-secret" });
    await settle();
    expect(response.status).toBe(401);
    expect(h.model.chatRequests).toHaveLength(0);
    expect(h.slack.callsTo("chat.postMessage")).toHaveLength(0);
  });

  it("rejects a correctly signed request whose timestamp is over 5 minutes old with 401", async () => {
    const response = await h.sender.event(mentionBody("hello"), { timestamp: Math.floor(Date.now() / 1000) - 6 * 60 });
    await settle();
    expect(response.status).toBe(401);
    expect(h.model.chatRequests).toHaveLength(0);
  });

  it("rejects a correctly signed request whose timestamp is 2 minutes ahead with 401, and answers one 30 s ahead", async () => {
    h.model.script(reply.text("Hello from 30 s ahead."));
    const now = Math.floor(Date.now() / 1000);

    const ahead = await h.sender.event(mentionBody("from the future"), { timestamp: now + 2 * 60 });
    const dayAhead = await h.sender.event(mentionBody("from tomorrow"), { timestamp: now + 24 * 60 * 60 });
    const slightlyAhead = await h.sender.event(mentionBody("hello"), { timestamp: now + 30 });

    expect(ahead.status).toBe(401);
    expect(dayAhead.status).toBe(401);
    expect(slightlyAhead.status).toBe(200);
    await h.slack.waitFor(() => h.slack.callsTo("chat.postMessage").length === 1, { what: "the answer" });
    await h.idle();
    expect(h.model.chatRequests).toHaveLength(1);
    expect(h.slack.messages.map((m) => m.text)).toEqual(["Hello from 30 s ahead."]);
  });

  it("acknowledges an event before the turn has finished", async () => {
    h.model.script(reply.delayed(2_000, reply.text("slow answer")));
    const response = await h.sender.event(mentionBody("take your time"));
    expect(response.status).toBe(200);
    expect(response.ms).toBeLessThan(1_500);
    expect(h.slack.callsTo("chat.postMessage")).toHaveLength(0);
    await h.slack.waitFor(() => h.slack.callsTo("chat.postMessage").length === 1, { what: "the answer" });
  });

  it("answers an event delivered three times (Slack's retries) once", async () => {
    h.model.script(reply.delayed(200, reply.text("Only once.")));
    const posted: string[] = [];
    h.slack.onCall((call) => call.method === "chat.postMessage" && posted.push(call.params.text));
    const body = mentionBody("hello", "Ev-retried");
    for (let attempt = 0; attempt < 3; attempt++) {
      const response = await h.sender.event(body, { headers: attempt ? { "x-slack-retry-num": String(attempt), "x-slack-retry-reason": "http_timeout" } : {} });
      expect(response.status).toBe(200);
    }
    await h.slack.waitFor(() => h.slack.callsTo("chat.postMessage").length === 1, { what: "the answer" });
    await h.idle();
    await settle();
    expect(h.model.chatRequests).toHaveLength(1);
    expect(h.slack.messages.map((m) => m.text)).toEqual(["Only once."]);
    expect(posted).toEqual(["Only once."]);
  });

  it("still ignores a redelivered event after a restart", async () => {
    h.model.script(reply.text("Before the restart."));
    const body = mentionBody("hello", "Ev-before-restart");
    await h.sender.event(body);
    await h.slack.waitFor(() => h.slack.messages.length === 1, { what: "the answer" });
    await h.restart();
    const response = await h.sender.event(body, { headers: { "x-slack-retry-num": "1", "x-slack-retry-reason": "http_error" } });
    expect(response.status).toBe(200);
    await settle();
    await h.idle();
    expect(h.model.chatRequests).toHaveLength(1);
    expect(h.slack.messages).toHaveLength(1);
  });

  it("answers Slack's URL verification challenge", async () => {
    const response = await h.sender.event({ type: "url_verification", token: "unused", challenge: "challenge-123" });
    expect(response.status).toBe(200);
    expect(response.body).toContain("challenge-123");
  });
});

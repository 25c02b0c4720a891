import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { reply } from "../../fakes/fake-openai.js";
import { SlackHarness } from "../../support/slack-harness.js";

describe("Slack over Socket Mode", () => {
  let h: SlackHarness;
  beforeEach(async () => {
    h = await SlackHarness.start({ mode: "socket" });
    h.slack.addUser({ id: "U1", name: "alice" });
    h.slack.addUser({ id: "UADMIN", name: "ada", isAdmin: true });
  });
  afterEach(() => h.close());

  it("connects with the app token through apps.connections.open and opens no HTTP port", async () => {
    expect(h.adapter.mode).toBe("socket");
    expect(h.adapter.eventsUrl).toBeUndefined();
    expect(h.slack.socketConnections).toBe(1);
    const open = h.slack.callsTo("apps.connections.open");
    expect(open).toHaveLength(1);
    expect(open[0]!.token).toBe(h.slack.appToken);
  });

  it("acknowledges a mention envelope and answers with steps in the thread", async () => {
    h.model.script(reply.toolCalls({ name: "circumference", args: { radius: 1 } }), reply.text("About 6.28."));
    const ts = h.slack.nextTs();
    await h.mention({ user: "U1", channel: "C1", ts, text: "circumference of radius 1?" });
    expect(h.slack.acks).toHaveLength(1);
    await h.slack.waitFor(() => h.slack.thread("C1", ts).length === 2, { what: "step and answer" });
    await h.idle();
    expect(h.slack.thread("C1", ts).map((m) => m.text)).toEqual([expect.stringMatching(/^✅ `circumference` `\{"radius":1\}` → `6\.28/), "About 6.28."]);
  });

  it("answers the same envelope payload delivered three times once", async () => {
    h.model.script(reply.text("Once."));
    const ts = h.slack.nextTs();
    const body = await h.mention({ user: "U1", channel: "C1", ts, text: "hello" });
    await h.slack.sendEnvelope(body);
    await h.slack.sendEnvelope(body);
    expect(h.slack.acks).toHaveLength(3);
    await h.slack.waitFor(() => h.slack.thread("C1", ts).length === 1, { what: "the answer" });
    await h.idle();
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(h.model.chatRequests).toHaveLength(1);
  });

  it("acknowledges slash commands and refuses a non-admin's /tools enable", async () => {
    const { responseUrl } = await h.command("/tools", "enable calculator", "U1");
    expect((await h.answersAt(responseUrl))[0]).toMatch(/Only admins/);
    const byAdmin = await h.command("/tools", "disable calculator", "UADMIN");
    expect(await h.answersAt(byAdmin.responseUrl)).toEqual(["`calculator` is now disabled here."]);
    expect(h.slack.acks).toHaveLength(2);
  });
});

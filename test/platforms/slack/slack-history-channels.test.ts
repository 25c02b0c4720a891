import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { HistoryEntry } from "../../../src/store/history-store.js";
import { reply } from "../../fakes/fake-openai.js";
import { SlackHarness } from "../../support/slack-harness.js";

/**
 * Issue 24 §2 on Slack, with the real Bolt: search_history's `channel:` searches a public channel,
 * or a private one only for its members (conversations.info, conversations.members); never a
 * direct conversation, never another workspace's messages.
 */
describe("Slack: searching another channel's history", () => {
  let h: SlackHarness;
  beforeEach(async () => {
    h = await SlackHarness.start({ env: { RATE_LIMIT_PER_USER: "100" } });
    h.slack.addUser({ id: "U1", name: "alice" });
    h.slack.addUser({ id: "U2", name: "bob" });
    h.slack.conversations.add({ id: "C1", name: "general", members: ["U1", "U2"] });
    h.slack.conversations.add({ id: "CPUB", name: "random" });
    // a private channel with more members than one page of conversations.members holds
    const crowd = Array.from({ length: 450 }, (_, i) => `UX${i}`);
    h.slack.conversations.add({ id: "GPRIV", name: "leads", isPrivate: true, members: [...crowd, "U2"] });
    h.slack.conversations.add({ id: "DBOB", name: "", isIm: true, members: ["U2"] });
  });
  afterEach(() => h.close());

  const said = (workspaceId: string, channelId: string, text: string, ts: string): HistoryEntry => ({
    platform: "slack",
    workspaceId,
    channelId,
    messageId: ts,
    kind: "message",
    authorId: "U2",
    authorName: "bob",
    text,
    link: `https://fake.slack.test/archives/${channelId}/p${ts.replace(".", "")}`,
    time: Date.now(),
  });

  async function ask(user: string, channel: string): Promise<string> {
    const before = h.model.chatRequests.length;
    h.model.script(reply.toolCalls({ name: "search_history", args: { query: "roadmap", channel } }), reply.text("done"));
    const ts = h.slack.nextTs();
    await h.mention({ user, channel: "C1", ts, text: "what about the roadmap?" });
    await h.slack.waitFor(() => h.slack.thread("C1", ts).some((m) => m.text.includes("done")), { what: "the answer" });
    await h.idle();
    return h.model.toolResults(before + 1)[0]!.content;
  }

  it("a public channel for anyone, a private one for its members only, never a DM or another workspace's", async () => {
    await h.app.store.history.add([
      said("T1", "CPUB", "the public roadmap is on the wiki", "1.000001"),
      said("T1", "GPRIV", "the leads roadmap: reorg in March", "1.000002"),
      said("T1", "DBOB", "my private roadmap worries", "1.000003"),
      said("T2", "CPUB", "another workspace's roadmap", "1.000004"),
    ]);

    const open = await ask("U1", "<#CPUB|random>");
    expect(open).toContain("from #random's history");
    expect(open).toContain("public **roadmap**");
    expect(open).not.toContain("another workspace");

    // GPRIV: alice is not a member (the fake pages its 451 members), bob is
    const refused = await ask("U1", "<#GPRIV>");
    expect(refused).toMatch(/cannot read that channel/);
    expect(refused).not.toContain("reorg");
    expect(h.slack.callsTo("conversations.members").length).toBeGreaterThanOrEqual(3);
    expect(await ask("U2", "GPRIV")).toContain("reorg in March");

    // a direct conversation, even the asker's own, is never searched from a channel
    const dm = await ask("U2", "<#DBOB>");
    expect(dm).toMatch(/Direct conversations/);
    expect(dm).not.toContain("worries");
    // a channel Slack does not know in this workspace
    expect(await ask("U1", "<#CNOPE>")).toMatch(/no such channel in this workspace/);
  });
});

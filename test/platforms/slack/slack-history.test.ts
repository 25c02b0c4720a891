import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { reply } from "../../fakes/fake-openai.js";
import { messageChanged, messageDeleted } from "../../fakes/slack/payloads.js";
import { SlackHarness } from "../../support/slack-harness.js";

/** Issue 24 §2-3 on Slack, with the real Bolt: history on, permalinks, never another workspace, edits and deletions. */

async function eventually(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error("the condition did not hold in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("Slack: search over the channel's history", () => {
  let h: SlackHarness;
  beforeEach(async () => {
    h = await SlackHarness.start();
    h.slack.addUser({ id: "U1", name: "alice" });
    h.slack.addUser({ id: "UADMIN", name: "boss", isAdmin: true });
  });
  afterEach(() => h.close());

  const search = (text: string, workspaceId = "T1") => h.app.store.history.search({ platform: "slack", workspaceId, channelId: "C1", text, limit: 10 });

  it("indexes a channel's messages with their permalinks once an admin turns history on, never another workspace's; edits and deletions follow", async () => {
    const early = h.slack.nextTs();
    await h.message({ user: "U1", channel: "C1", ts: early, text: "before history was on: the deploy window" });
    const run = await h.command("/settings", "channel history on", "UADMIN");
    expect((await h.answersAt(run.responseUrl))[0]).toMatch(/From now on I index/);

    const ts = h.slack.nextTs();
    await h.message({ user: "U1", channel: "C1", ts, text: "The deploy window is Thursday 14:00 UTC" });
    const reply1 = h.slack.nextTs();
    await h.message({ user: "U1", channel: "C1", ts: reply1, threadTs: ts, text: "deploy checklist is in the wiki" });
    // the same channel id in another workspace, saying the same
    await h.deliver(
      { type: "message", channel_type: "channel", user: "U9", channel: "C1", ts: h.slack.nextTs(), text: "the deploy window of the other workspace" },
      { teamId: "T2" },
    );
    await eventually(async () => (await search("deploy")).length === 2);

    h.model.script(reply.toolCalls({ name: "search_history", args: { query: "deploy window" } }), reply.text("Thursday 14:00 UTC, see the link."));
    const question = h.slack.nextTs();
    await h.mention({ user: "U1", channel: "C1", ts: question, text: "when is the deploy window?" });
    await h.slack.waitFor(() => h.slack.thread("C1", question).some((m) => m.text.includes("see the link")), { what: "the answer" });
    await h.idle();
    const result = h.model.toolResults(1)[0]!.content;
    expect(result).toContain(`link: https://fake.slack.test/archives/C1/p${ts.replace(".", "")}`);
    expect(result).toContain("alice");
    expect(result).toContain("**deploy** **window**");
    expect(result).not.toContain("other workspace");
    expect(result).not.toContain("before history was on");
    const thread = (await search("checklist"))[0]!;
    expect(thread.link).toBe(`https://fake.slack.test/archives/C1/p${reply1.replace(".", "")}?thread_ts=${ts}&cid=C1`);

    await h.deliver(messageChanged({ channel: "C1", ts, editedTs: h.slack.nextTs(), user: "U1", text: "The deploy window moved to Friday" }));
    await eventually(async () => (await search("friday")).length === 1);
    await h.deliver(messageDeleted({ channel: "C1", deletedTs: ts, ts: h.slack.nextTs() }));
    await eventually(async () => (await search("friday")).length === 0);
    // a deleted question's exchange leaves the memory window too
    await eventually(async () => (await search("when")).length === 1);
    await h.deliver(messageDeleted({ channel: "C1", deletedTs: question, ts: h.slack.nextTs() }));
    await eventually(async () => (await search("when")).length === 0);
    const shown = await h.command("/memory", "show", "U1");
    expect((await h.answersAt(shown.responseUrl))[0]).not.toContain("deploy window");
    // the other workspace's message was never indexed (history is off there)
    expect(await search("deploy", "T2")).toEqual([]);
  });
});

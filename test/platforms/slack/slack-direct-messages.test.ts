import { afterEach, describe, expect, it } from "vitest";
import { reply } from "../../fakes/fake-openai.js";
import { message } from "../../fakes/slack/payloads.js";
import { SlackHarness, type SlackFrom } from "../../support/slack-harness.js";

/** The app installed in two workspaces, T1 and T2, served by one process. */
const T1: SlackFrom = { teamId: "T1" };
const T2: SlackFrom = { teamId: "T2" };

describe("Slack direct messages follow the ignore list of their own workspace only", () => {
  let h: SlackHarness;
  afterEach(() => h.close());

  const start = async () => {
    h = await SlackHarness.start();
    h.slack.addUser({ id: "UALICE", name: "alice", teamId: "T1" });
    h.slack.addUser({ id: "UT1ADMIN", name: "ada", teamId: "T1", isAdmin: true });
    h.slack.addUser({ id: "UT2ADMIN", name: "tom", teamId: "T2", isAdmin: true });
    h.model.otherwise(reply.text("hello"));
  };

  const ignore = async (admin: string, from: SlackFrom, channel: string) => {
    const run = await h.command("/settings", "ignore-user <@UALICE|alice>", admin, channel, from);
    return (await h.answersAt(run.responseUrl))[0]!;
  };

  /** Alice writes to the bot in her DM in T1; resolves once it was dealt with. */
  const aliceDms = async () => {
    await h.deliver(message({ user: "UALICE", text: "are you there?", channel: "D1", ts: h.slack.nextTs(), channelType: "im" }), T1);
    await h.slack.waitFor(() => h.model.chatRequests.length > 0 || h.slack.callsTo("users.info").some((call) => call.params.user === "UALICE"), {
      what: "the DM to be looked at",
    });
    await h.idle();
    return h.slack.callsTo("chat.postMessage").filter((call) => call.params.channel === "D1");
  };

  it("answers a T1 user's DM that T2's admin ignored, and tells T2's admin the list is T2's", async () => {
    await start();
    const confirmation = await ignore("UT2ADMIN", T2, "C2");
    expect(confirmation).toMatch(/in this workspace: in its channels, and in their direct messages with me while they are a member of it/);
    expect(confirmation).toMatch(/Other workspaces are not affected/);
    expect(confirmation).not.toMatch(/here\.$/);

    const posts = await aliceDms();
    expect(posts.map((call) => call.params.text)).toEqual(["hello"]);
  });

  it("does not answer the DM of a user their own workspace's admin ignored", async () => {
    await start();
    expect(await ignore("UT1ADMIN", T1, "C1")).toMatch(/in this workspace/);

    expect(await aliceDms()).toEqual([]);
    expect(h.model.chatRequests).toHaveLength(0);
  });
});

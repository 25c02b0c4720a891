import { afterEach, describe, expect, it } from "vitest";
import { reply } from "../../fakes/fake-openai.js";
import type { FakeMessage } from "../../fakes/slack/messages.js";
import { SlackHarness } from "../../support/slack-harness.js";
import { dbOf } from "../../support/test-app.js";

/** Slack's feedback buttons a message shows now, as the client renders them. */
const feedbackOf = (message: FakeMessage) =>
  message.blocks.filter((block) => block.type === "context_actions").flatMap((block) => block.elements.filter((e: any) => e.type === "feedback_buttons"));

describe("Slack: feedback buttons under answers", () => {
  let h: SlackHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it("ends a native stream with 👍 / 👎 (chat.stopStream's blocks); a press is recorded once per person, a second changes it, each told privately", async () => {
    h = await SlackHarness.start();
    h.model.script(reply.streamed(["Paris ", "is ", "the ", "capital."], { delayMs: 30 }));
    const ts = h.slack.nextTs();
    await h.mention({ user: "U1", channel: "C1", ts, text: "capital of France?" });
    await h.slack.waitFor(() => h!.slack.callsTo("chat.stopStream").length > 0, { what: "the end of the stream" });
    await h.idle();

    const answer = h.slack.thread("C1", ts).find((m) => m.streamed)!;
    expect(answer.text).toBe("Paris is the capital.");
    const [buttons] = feedbackOf(answer);
    const turn = dbOf(h.app).prepare("SELECT id FROM turns").get() as { id: string };
    expect(buttons).toMatchObject({
      action_id: "answer_feedback",
      positive_button: { text: { text: "👍" }, value: `${turn.id}:up` },
      negative_button: { text: { text: "👎" }, value: `${turn.id}:down` },
    });

    const told = async (user: string, count: number) => {
      await h!.slack.waitFor(() => h!.slack.ephemerals.filter((e) => e.user === user).length >= count, { what: `answer ${count} to ${user}` });
      const last = h!.slack.ephemerals.filter((e) => e.user === user).at(-1)!;
      expect(last.threadTs).toBe(ts);
      return last.text;
    };
    await h.pressFeedback("U1", answer, "up");
    expect(await told("U1", 1)).toBe("👍 Thanks, your feedback on this answer was counted.");
    await h.pressFeedback("U1", answer, "down");
    expect(await told("U1", 2)).toBe("👎 Changed: your feedback on this answer is now 👎.");
    await h.pressFeedback("U2", answer, "down");
    expect(await told("U2", 1)).toBe("👎 Thanks, your feedback on this answer was counted.");
    // A press that claims another workspace counts nowhere.
    await h.pressFeedback("U3", answer, "up", { teamId: "T2" });
    expect(await told("U3", 1)).toBe("This answer can no longer be rated.");

    expect(dbOf(h.app).prepare("SELECT user_id, vote, changes FROM turn_feedback ORDER BY user_id").all()).toEqual([
      { user_id: "U1", vote: "down", changes: 1 },
      { user_id: "U2", vote: "down", changes: 0 },
    ]);
  });

  it("posts an unstreamed answer's text in sections with the buttons under it, and a streamed one Slack refused gets them in its last update", async () => {
    h = await SlackHarness.start({ env: { STREAM_ANSWERS: "false" } });
    // Over one section's 3,000 characters (within one message's 3,800): two sections, cut at a line end.
    const long = `${"a".repeat(2_000)}\n${"b".repeat(1_500)}`;
    h.model.script(reply.text(long));
    const ts = h.slack.nextTs();
    await h.mention({ user: "U1", channel: "C1", ts, text: "long one" });
    await h.slack.waitFor(() => h!.slack.thread("C1", ts).find((m) => m.text === long), { what: "the answer" });
    const answer = h.slack.thread("C1", ts).find((m) => m.text === long)!;
    expect(answer.blocks.map((block) => block.type)).toEqual(["section", "section", "context_actions"]);
    expect(answer.blocks.slice(0, 2).map((block) => block.text.text)).toEqual(["a".repeat(2_000), "b".repeat(1_500)]);
    expect(feedbackOf(answer)).toHaveLength(1);
    await h.close();

    h = await SlackHarness.start({ fake: { streaming: "refused" } });
    h.model.script(reply.streamed(["Posted ", "and ", "edited."], { delayMs: 30 }));
    const ts2 = h.slack.nextTs();
    await h.mention({ user: "U1", channel: "C1", ts: ts2, text: "edit it" });
    await h.slack.waitFor(() => h!.slack.thread("C1", ts2).find((m) => feedbackOf(m).length > 0), { what: "the buttons" });
    const edited = h.slack.thread("C1", ts2).find((m) => feedbackOf(m).length > 0)!;
    expect(edited.text).toBe("Posted and edited.");
    expect(edited.blocks[0]).toEqual({ type: "section", text: { type: "mrkdwn", text: "Posted and edited." } });
  });

  it("leaves them off a failure", async () => {
    h = await SlackHarness.start({ env: { STREAM_ANSWERS: "false" } });
    h.model.script(reply.status(400, "the model refused"));
    const ts = h.slack.nextTs();
    await h.mention({ user: "U1", channel: "C1", ts, text: "fail" });
    await h.slack.waitFor(() => h!.slack.thread("C1", ts).find((m) => m.text.startsWith("⚠️")), { what: "the failure" });
    await h.idle();
    expect(h.slack.thread("C1", ts).flatMap(feedbackOf)).toEqual([]);
  });
});

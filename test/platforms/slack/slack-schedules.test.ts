import { describe, expect } from "vitest";
import { botTest as it } from "../../support/started-bots.js";
import { reply } from "../../fakes/fake-openai.js";

/** Scheduled tasks with the real Bolt app against the fake Slack (issue 26). */
describe("Slack: /schedule", () => {
  it("runs a task 2 seconds away as a new post, answers in its thread, and a follow-up there continues the run's conversation", async ({ startSlack }) => {
    const h = await startSlack();
    h.slack.addUser({ id: "UADMIN", name: "ada", isAdmin: true });
    h.slack.addUser({ id: "UMEMBER", name: "max" });
    h.model.script(reply.toolCalls({ name: "circumference", args: { radius: 2 } }), reply.text("About 12.57."));

    const refused = await h.command("/schedule", "add every weekday at 9 | Post the news", "UMEMBER");
    expect((await h.answersAt(refused.responseUrl))[0]).toContain("Only admins can create scheduled tasks here");

    const added = await h.command("/schedule", "add in 2 seconds | circumference for radius 2?", "UADMIN");
    const [answer] = await h.answersAt(added.responseUrl);
    expect(answer).toMatch(/^Scheduled `[0-9a-f]{8}` \(once, UTC\): circumference for radius 2\?\nNext: /);
    const id = /`([0-9a-f]{8})`/.exec(answer!)?.[1];

    const post = await h.slack.waitFor(() => h.slack.topLevel("C1").find((message) => message.text.startsWith("⏰")), {
      what: "the run's post",
      timeoutMs: 15_000,
    });
    expect(post.text).toBe(`⏰ Scheduled task \`${id}\` by <@UADMIN>: circumference for radius 2?`);
    await h.slack.waitFor(() => h.slack.thread("C1", post.ts).some((message) => message.text === "About 12.57."), {
      what: "the answer in the thread",
      timeoutMs: 15_000,
    });
    await h.idle();
    expect(h.slack.thread("C1", post.ts).some((message) => message.text.includes("circumference"))).toBe(true);

    h.model.script(reply.text("About 18.85."));
    await h.message({ user: "UADMIN", channel: "C1", ts: h.slack.nextTs(), threadTs: post.ts, text: "and radius 3?" });
    await h.slack.waitFor(() => h.slack.thread("C1", post.ts).some((message) => message.text === "About 18.85."), { what: "the follow-up's answer" });
    await h.idle();
    const history = h.model.chatRequests[2]!.body.messages.filter((m: any) => m.role === "user" || (m.role === "assistant" && m.content));
    expect(history.map((m: any) => m.content)).toEqual(["circumference for radius 2?", "About 12.57.", "and radius 3?"]);
  });
});

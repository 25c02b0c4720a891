import { describe, expect } from "vitest";
import { botTest as it } from "../support/started-bots.js";
import { reply } from "../fakes/fake-openai.js";

describe("messages that show nothing", () => {
  it("a question of only zero-width characters gets the hint and costs no model call", async ({ startSlack }) => {
    const h = await startSlack();
    h.slack.addUser({ id: "U1", name: "alice" });
    const ts = h.slack.nextTs();
    await h.mention({ user: "U1", channel: "C1", ts, text: "\u200b\u200c\u200d\u2060\ufeff" });
    await h.slack.waitFor(() => h.slack.thread("C1", ts).length === 1, { what: "the hint" });
    await h.idle();
    expect(h.model.chatRequests).toHaveLength(0);
    expect(h.slack.thread("C1", ts)[0]!.text).toMatch(/^Hi! Ask me something after the mention/);
  });

  it("an answer of only zero-width characters and NUL bytes is never posted as is", async ({ startSlack }) => {
    const h = await startSlack();
    h.slack.addUser({ id: "U1", name: "alice" });
    h.model.otherwise(reply.text("\u200b\u0000\u200d\u0000"));
    const ts = h.slack.nextTs();
    await h.mention({ user: "U1", channel: "C1", ts, text: "say nothing" });
    await h.slack.waitFor(() => h.slack.thread("C1", ts).length === 1, { what: "the answer" });
    await h.idle();
    const [answer] = h.slack.thread("C1", ts);
    expect(answer!.text).not.toMatch(/[\u0000\u200b\u200d]/);
    expect(answer!.text.trim()).not.toBe("");
  });
});

import { afterEach, describe, expect, it } from "vitest";
import type { RecordedRequest } from "../../fakes/fake-openai.js";
import { SlackHarness } from "../../support/slack-harness.js";

const isSummary = (req: RecordedRequest) => String(req.body.messages[0]?.content ?? "").startsWith("You keep the running summary of a group chat");

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(condition()).toBe(true);
}

describe("Slack: the summary of what left the memory window", () => {
  let h: SlackHarness;
  afterEach(() => h.close());

  it("summarizes with the speakers' names, says so once, and cites identifiers by the message's ts", async () => {
    h = await SlackHarness.start({ env: { MEMORY_SUMMARY: "on", MEMORY_SUMMARY_BATCH: "1", MEMORY_WINDOW: "2", RATE_LIMIT_PER_USER: "100" } });
    for (const [id, name] of [
      ["U1", "alice"],
      ["U2", "bob"],
      ["U3", "carol"],
    ]) {
      h.slack.addUser({ id: id!, name: name! });
    }
    h.model.otherwise((req) =>
      isSummary(req)
        ? { kind: "message", content: "- Decisions: carol ships on Thursday." }
        : { kind: "message", content: `answer to ${req.body.messages.at(-1).content}` },
    );
    const texts = [
      "who owns the release?",
      "the dashboard is https://example.com/dash and p99 is 180 ms",
      "I'll ship on 2026-12-03",
      "ok",
      "what did we decide?",
    ];
    const asked: string[] = [];
    for (const [i, text] of texts.entries()) {
      const ts = h.slack.nextTs();
      await h.mention({ user: `U${(i % 3) + 1}`, channel: "C1", ts, text });
      await h.slack.waitFor(() => h.slack.thread("C1", ts).length > 0, { what: "an answer" });
      await h.idle();
      await until(() => h.model.chatRequests.filter(isSummary).length >= i - 1);
      await h.app.summaries.idle();
      asked.push(ts);
    }

    const summaries = h.model.chatRequests.filter(isSummary);
    expect(summaries).toHaveLength(3);
    expect(String(summaries[0]!.body.messages[1].content)).toMatch(/\] alice: who owns the release\?/);
    expect(String(summaries[1]!.body.messages[1].content)).toMatch(/\] bob: the dashboard is https:\/\/example\.com\/dash/);

    const memory = String(h.model.chatRequests.filter((req) => !isSummary(req)).at(-1)!.body.messages[1].content);
    expect(memory).toContain("- Decisions: carol ships on Thursday.");
    expect(memory).toContain(`- https://example.com/dash (bob, slack message ${asked[1]})`);
    expect(memory).toContain(`- 180 ms (bob, slack message ${asked[1]})`);

    const notes = asked.flatMap((ts) => h.slack.thread("C1", ts)).filter((message) => /I keep a summary of earlier messages here/.test(message.text ?? ""));
    expect(notes).toHaveLength(1);
  });
});

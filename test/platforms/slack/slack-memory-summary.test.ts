import { describe, expect } from "vitest";
import { botTest as it } from "../../support/started-bots.js";
import type { RecordedRequest } from "../../fakes/fake-openai.js";

const isSummary = (req: RecordedRequest) => String(req.body.messages[0]?.content ?? "").startsWith("You keep the running summary of a group chat");

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(condition()).toBe(true);
}

describe("Slack: the summary of what left the memory window", () => {
  it("summarizes with the speakers' names, says so once, and cites identifiers by the message's ts", async ({ startSlack }) => {
    const h = await startSlack({ env: { MEMORY_SUMMARY: "on", MEMORY_SUMMARY_BATCH: "1", MEMORY_WINDOW: "2", RATE_LIMIT_PER_USER: "100" } });
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

  it("forget-me empties the summaries that used the person's messages: while the rebuild fails, the prompt gets the others' questions only", async ({
    startSlack,
  }) => {
    const h = await startSlack({ env: { MEMORY_SUMMARY: "on", MEMORY_SUMMARY_BATCH: "1", MEMORY_WINDOW: "1", RATE_LIMIT_PER_USER: "100" } });
    h.slack.addUser({ id: "U1", name: "alice" });
    h.slack.addUser({ id: "U2", name: "bob" });
    let failSummaries = false;
    // The fake summarizer keeps every line it is given; once told to fail, it fails.
    h.model.otherwise((req) => {
      if (!isSummary(req)) return { kind: "message", content: "noted" };
      if (failSummaries) return { kind: "http", status: 400, body: { error: { message: "summaries are down", type: "invalid_request_error", code: null } } };
      return {
        kind: "message",
        content: String(req.body.messages[1].content)
          .split("\n")
          .filter((line) => line.startsWith("["))
          .join("\n"),
      };
    });
    let asked = 0;
    const ask = async (user: string, text: string) => {
      const ts = h.slack.nextTs();
      await h.mention({ user, channel: "C1", ts, text });
      await h.slack.waitFor(() => h.slack.thread("C1", ts).length > 0, { what: "an answer" });
      await h.idle();
      // From the second turn on, each drops one exchange out of a window of one: one summary call each.
      asked++;
      await until(() => h.model.chatRequests.filter(isSummary).length === Math.max(0, asked - 1));
      await h.app.summaries.idle();
    };
    await ask("U1", "my phone is 555-0199, my CV is at https://example.com/alice-cv");
    await ask("U2", "the launch is on 2026-12-03");
    await ask("U1", "ok");
    await ask("U2", "anything else?");
    const prompt = () => JSON.stringify(h.model.chatRequests.filter((req) => !isSummary(req)).at(-1)!.body.messages);
    expect(prompt()).toContain("555-0199");
    expect(prompt()).toContain("https://example.com/alice-cv");

    failSummaries = true;
    const calls = h.model.chatRequests.filter(isSummary).length;
    const run = await h.command("/memory", "forget-me", "U1");
    expect((await h.answersAt(run.responseUrl))[0]).toMatch(/of your exchanges with me here/);
    // The rebuild is tried at once, in the background, and fails.
    await until(() => h.model.chatRequests.filter(isSummary).length > calls);
    await h.app.summaries.idle();

    const ts = h.slack.nextTs();
    await h.mention({ user: "U2", channel: "C1", ts, text: "what do you remember?" });
    await h.slack.waitFor(() => h.slack.thread("C1", ts).length > 0, { what: "an answer" });
    const after = prompt();
    expect(after).toContain("Earlier questions not summarized yet");
    expect(after).toContain("bob: the launch is on 2026-12-03");
    expect(after).not.toContain("555-0199");
    expect(after).not.toContain("alice-cv");
    expect(after).not.toContain("alice:");
    const shown = await h.command("/memory", "show", "U2");
    expect((await h.answersAt(shown.responseUrl))[0]).not.toContain("alice-cv");
  });
});

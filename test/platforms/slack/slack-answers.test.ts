import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../../../src/tools/define-tool.js";
import { reply } from "../../fakes/fake-openai.js";
import { SlackHarness } from "../../support/slack-harness.js";

/** What a user sees of a long answer: every message, joined back together. */
const words = (text: string) => text.split(/\s+/).filter((w) => w !== "" && !/^```/.test(w));

describe("Slack answers: formatting, long answers, mass mentions and failures", () => {
  let h: SlackHarness;
  beforeEach(async () => {
    h = await SlackHarness.start();
    h.slack.addUser({ id: "U1", name: "alice" });
  });
  afterEach(() => h.close());

  const ask = async (answer: Parameters<typeof h.model.script>[0], text = "question") => {
    h.model.script(answer);
    const ts = h.slack.nextTs();
    await h.mention({ user: "U1", channel: "C1", ts, text });
    await h.slack.waitFor(() => h.slack.thread("C1", ts).length > 0, { what: "an answer" });
    await h.idle();
    return h.slack.thread("C1", ts);
  };

  it("converts the model's Markdown to mrkdwn", async () => {
    const [answer] = await ask(reply.text("# Result\n**Bold** and *italic*, see [docs](https://example.com).\n- one\n- two"));
    expect(answer!.text).toBe("*Result*\n*Bold* and _italic_, see <https://example.com|docs>.\n• one\n• two");
  });

  it("splits a long answer into several messages under Slack's limit, losing no word and no code fence", async () => {
    const paragraphs = Array.from({ length: 30 }, (_, i) => `Paragraph ${i}: ${"lorem ipsum dolor sit amet ".repeat(12).trim()} end${i}.`);
    const code = ["```python", ...Array.from({ length: 60 }, (_, i) => `print("line ${i} of the long code block")`), "```"];
    const markdown = [...paragraphs, ...code, "Last words."].join("\n\n");
    const thread = await ask(reply.text(markdown));

    expect(thread.length).toBeGreaterThan(2);
    expect(h.slack.calls.filter((c) => c.response.error === "msg_too_long")).toEqual([]);
    for (const message of thread) {
      expect(message.text.length).toBeLessThanOrEqual(4_000);
      // every message opens and closes its code blocks
      expect((message.text.match(/^```/gm) ?? []).length % 2).toBe(0);
    }
    expect(words(thread.map((m) => m.text).join("\n"))).toEqual(words(markdown.replace("```python", "```")));
    expect(thread.at(-1)!.text).toMatch(/Last words\.$/);
  });

  it("never sends a broadcast or user-group mention the model wrote", async () => {
    const [answer] = await ask(reply.text("Attention <!channel> and <!here> and <!everyone> and <!subteam^S123|@oncall>, also @here!"));
    for (const call of h.slack.callsTo("chat.postMessage")) {
      expect(call.params.text).not.toMatch(/<!(channel|here|everyone|subteam)/);
      expect(call.params.text).not.toMatch(/(^|[^\u200B])@(here|channel|everyone)\b/);
    }
    expect(answer!.text).toContain("@\u200Bchannel");
  });

  it("defuses broadcasts in tool output shown as a step", async () => {
    await h.close();
    const shout = defineTool({
      name: "shout",
      description: "Returns text that tries to ping everyone.",
      parameters: z.object({ text: z.string() }),
      run: ({ text }) => `<!channel> ${text} @here <!subteam^S1>`,
    });
    h = await SlackHarness.start({ env: { DEFAULT_TOOLS: "shout" }, app: { extraTools: [shout] } });
    const thread = await ask(reply.toolCalls({ name: "shout", args: { text: "<!everyone>" } }));
    await h.slack.waitFor(() => h.slack.messages.length === 2, { what: "the step and the answer" });
    expect(thread[0]!.text).toMatch(/^✅ `shout`/);
    for (const message of h.slack.messages) {
      expect(message.versions.join("\n")).not.toMatch(/<!(channel|here|everyone|subteam)/);
      expect(message.versions.join("\n")).not.toMatch(/(^|[^\u200B])@(here|channel|everyone)\b/);
    }
  });

  it("ends a model failure as a short message in the thread and removes the thinking reaction", async () => {
    await h.close();
    h = await SlackHarness.start({ env: { OPENAI_MAX_RETRIES: "0" } });
    h.model.script(reply.status(500, "the model server broke"));
    const ts = h.slack.nextTs();
    await h.mention({ user: "U1", channel: "C1", ts, text: "hello" });
    const [message] = await h.slack.waitFor(() => (h.slack.thread("C1", ts).length ? h.slack.thread("C1", ts) : undefined), { what: "the failure message" });
    await h.idle();
    expect(message!.text).toMatch(/^⚠️ /);
    expect(message!.text.length).toBeLessThan(300);
    expect(message!.text).not.toContain("the model server broke");
    expect(h.slack.reactionsOn("C1", ts)).toEqual([]);
    // the store stays consistent: the failed turn is recorded, the memory is untouched
    const turns = h.t.store.db.prepare("SELECT status FROM turns").all();
    expect(turns).toEqual([{ status: "failed" }]);
    expect(h.t.store.db.prepare("SELECT COUNT(*) AS n FROM messages").get()).toEqual({ n: 0 });
  });

  it("answers a mention with nothing after it with a short hint and no model call", async () => {
    const ts = h.slack.nextTs();
    await h.deliver({ type: "app_mention", user: "U1", channel: "C1", ts, text: `<@${h.slack.botUserId}>` });
    await h.slack.waitFor(() => h.slack.thread("C1", ts).length === 1, { what: "the hint" });
    expect(h.slack.thread("C1", ts)[0]!.text).toMatch(/Ask me something/);
    expect(h.model.chatRequests).toHaveLength(0);
  });
});

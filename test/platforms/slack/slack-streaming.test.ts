import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../../../src/tools/define-tool.js";
import { reply } from "../../fakes/fake-openai.js";
import type { FakeSlackOptions, SlackCall } from "../../fakes/slack/fake-slack.js";
import { SlackHarness } from "../../support/slack-harness.js";

/**
 * Streaming on Slack, asserted on the fake Slack: native streams in the question's thread (tool
 * steps as task cards), and the fallback to chat.postMessage + chat.update when Slack refuses or
 * lets a stream expire, at most one update per STREAM_EDIT_INTERVAL_MS.
 */
const INTERVAL_MS = 200;
const ARRIVAL_SLACK_MS = 30;
const sentence = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(" ");
const piecesOf = (text: string) => text.split(/(?<= )/);
const gaps = (calls: SlackCall[]) => calls.slice(1).map((call, i) => call.at - calls[i]!.at);
const isAnswerText = (text: string) => text.startsWith("word");

const slowTool = defineTool({
  name: "slow_lookup",
  description: "takes a while",
  parameters: z.object({ key: z.string() }),
  run: async ({ key }) => {
    await new Promise((resolve) => setTimeout(resolve, 400));
    return `value of ${key}`;
  },
});

describe("Slack: streamed answers", () => {
  let h: SlackHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  const start = (fake: FakeSlackOptions = {}, intervalMs = INTERVAL_MS) =>
    SlackHarness.start({
      env: { STREAM_EDIT_INTERVAL_MS: String(intervalMs), DEFAULT_TOOLS: "circumference,slow_lookup" },
      fake,
      app: { extraTools: [slowTool] },
    }).then((harness) => (h = harness));

  it("streams natively in the thread, to the asker, with each tool step as a task card, and ends the stream", async () => {
    const h = await start();
    // The step's writes (its post, its task card started and completed, its post's update) and the
    // first text use the channel's five writes per window of five intervals (1 s), so the next
    // append waits for that window to pass: the answer streams for 1.8 s, well past it.
    const answer = sentence(60);
    h.model.script(reply.toolCalls({ name: "circumference", args: { radius: 2 } }), reply.streamed(piecesOf(answer), { delayMs: 30 }));
    const ts = h.slack.nextTs();

    await h.mention({ user: "U1", channel: "C1", ts, text: "circle?" });
    await h.slack.waitFor(() => h.slack.callsTo("chat.stopStream").length > 0, { what: "the end of the stream" });
    await h.idle();

    const streamed = h.slack.thread("C1", ts).filter((m) => m.streamed);
    expect(streamed).toHaveLength(1);
    const message = streamed[0]!;
    expect(message.text).toBe(answer);
    expect(message.streamed!.open).toBe(false);
    expect(message.streamed!.recipientUser).toBe("U1");
    expect(message.streamed!.recipientTeam).toBe("T1");
    expect(message.streamed!.tasks.get("step-1")!.map((task) => task.status)).toEqual(["in_progress", "complete"]);
    expect(message.streamed!.tasks.get("step-1")!.at(-1)!.output).toBe("12.5663706144");
    // the threaded step reply is still posted: the thread keeps the full record
    expect(h.slack.thread("C1", ts).some((m) => m.text.startsWith("✅ `circumference`"))).toBe(true);
    // the first text arrived before the model had finished, and text appends kept to the interval
    const textWrites = [...h.slack.callsTo("chat.startStream"), ...h.slack.callsTo("chat.appendStream")].filter((call) =>
      JSON.stringify(call.params.chunks ?? "").includes("markdown_text"),
    );
    expect(textWrites[0]!.at).toBeLessThan(h.model.chatRequests[1]!.chunksAt.at(-1)!);
    expect(textWrites.length).toBeGreaterThanOrEqual(2);
    for (const gap of gaps(textWrites)) expect(gap).toBeGreaterThanOrEqual(INTERVAL_MS - ARRIVAL_SLACK_MS);
    // no fallback was needed: the only updates are the step's (its start, then its result)
    expect(h.slack.callsTo("chat.update").filter((call) => isAnswerText(String(call.params.text)))).toEqual([]);
  });

  it.each([
    ["refused by the workspace", { streaming: "refused" } as FakeSlackOptions],
    ["unknown to an older Slack", { streaming: "unknown" } as FakeSlackOptions],
  ])("posts and updates the answer when native streaming is %s", async (_why, fake) => {
    const h = await start(fake);
    const answer = sentence(40);
    h.model.script(reply.streamed(piecesOf(answer), { delayMs: 30 }));
    const ts = h.slack.nextTs();

    await h.mention({ user: "U1", channel: "C1", ts, text: "talk" });
    await h.slack.waitFor(() => h.slack.thread("C1", ts).some((m) => m.text === answer), { what: "the whole answer" });
    await h.idle();

    const [message, ...others] = h.slack.thread("C1", ts);
    expect(others).toEqual([]);
    expect(message!.text).toBe(answer);
    const writes = [...h.slack.callsTo("chat.postMessage"), ...h.slack.callsTo("chat.update")].filter((call) => isAnswerText(String(call.params.text)));
    expect(writes[0]!.method).toBe("chat.postMessage");
    expect(writes[0]!.at).toBeLessThan(h.model.chatRequests[0]!.chunksAt.at(-1)!);
    expect(writes.length).toBeGreaterThanOrEqual(3);
    for (const gap of gaps(writes)) expect(gap).toBeGreaterThanOrEqual(INTERVAL_MS - ARRIVAL_SLACK_MS);
  });

  it.each([
    ["natively", {} as FakeSlackOptions],
    ["by posting and updating", { streaming: "refused" } as FakeSlackOptions],
  ])("ends an answer whose whole text came within the edit interval at once, %s, in at most two writes", async (_how, fake) => {
    // An interval far longer than the answer takes to arrive: the end must not wait for it.
    const intervalMs = 4_000;
    const h = await start(fake, intervalMs);
    const answer = sentence(6);
    h.model.script(reply.streamed(piecesOf(answer), { delayMs: 40 }));
    const ts = h.slack.nextTs();

    await h.mention({ user: "U1", channel: "C1", ts, text: "quick one" });
    await h.slack.waitFor(() => h.slack.thread("C1", ts).some((m) => m.text === answer && m.streamed?.open !== true), { what: "the whole answer" });
    await h.idle();

    expect(h.slack.thread("C1", ts).map((m) => m.text)).toEqual([answer]);
    const writes = h.slack.calls.filter(
      (call) => ["chat.startStream", "chat.appendStream", "chat.stopStream", "chat.postMessage", "chat.update"].includes(call.method) && call.response.ok,
    );
    // The first text as soon as it came, then the rest with the end (today: a third call, one interval later).
    expect(writes.length).toBeLessThanOrEqual(2);
    const modelDone = h.model.chatRequests[0]!.chunksAt.at(-1)!;
    expect(writes.at(-1)!.at - modelDone).toBeLessThan(intervalMs / 2);
  });

  it("goes on with chat.update in the same message when the stream expires during a long tool call", async () => {
    const h = await start({ streamIdleMs: 250 });
    const answer = sentence(20);
    h.model.script(reply.toolCalls({ name: "slow_lookup", args: { key: "k" } }), reply.streamed(piecesOf(answer), { delayMs: 20 }));
    const ts = h.slack.nextTs();

    await h.mention({ user: "U1", channel: "C1", ts, text: "look it up" });
    await h.slack.waitFor(() => h.slack.thread("C1", ts).some((m) => m.text === answer), { what: "the whole answer" });
    await h.idle();

    const expired = h.slack.calls.filter((call) => call.response.error === "message_not_in_streaming_state");
    expect(expired.length).toBeGreaterThan(0);
    const streamed = h.slack.thread("C1", ts).filter((m) => m.streamed);
    expect(streamed).toHaveLength(1);
    expect(streamed[0]!.text).toBe(answer);
    expect(h.slack.callsTo("chat.update").some((call) => call.params.ts === streamed[0]!.ts)).toBe(true);
    expect(h.slack.thread("C1", ts).filter((m) => isAnswerText(m.text))).toHaveLength(1);
  });

  it("treats a rate limit answered with HTTP 200 and ok: false as a failure: waits, then updates with all the text", async () => {
    const h = await start({ streaming: "refused" });
    const answer = sentence(40);
    h.model.script(reply.streamed(piecesOf(answer), { delayMs: 25 }));
    h.slack.fail("chat.update", { error: "ratelimited" });
    const ts = h.slack.nextTs();

    await h.mention({ user: "U1", channel: "C1", ts, text: "talk" });
    await h.slack.waitFor(() => h.slack.thread("C1", ts).some((m) => m.text === answer), { what: "the whole answer" });
    await h.idle();

    const updates = h.slack.callsTo("chat.update");
    const limited = updates.findIndex((call) => call.response.error === "ratelimited");
    expect(limited).toBeGreaterThanOrEqual(0);
    // Slack gave no Retry-After: the bot waits a second before the next update of that message
    expect(updates[limited + 1]!.at - updates[limited]!.at).toBeGreaterThanOrEqual(1_000 - ARRIVAL_SLACK_MS);
    expect(h.slack.thread("C1", ts).map((m) => m.text)).toEqual([answer]);
  });

  it("shows the thread's status while it works in a DM, or the ⏳ reaction where the app has no assistant feature", async () => {
    for (const threadStatus of [true, false]) {
      const h = await start({ threadStatus });
      h.model.script(reply.text("hello there"));
      const ts = h.slack.nextTs();
      await h.message({ user: "U1", channel: "D1", channelType: "im", ts, text: "hi" });
      await h.slack.waitFor(() => h.slack.messages.some((m) => m.text === "hello there"), { what: "the answer" });
      await h.idle();

      if (threadStatus) {
        expect(h.slack.statuses).toEqual([
          { channel: "D1", threadTs: ts, status: "is thinking…" },
          { channel: "D1", threadTs: ts, status: "" },
        ]);
        expect(h.slack.callsTo("reactions.add")).toEqual([]);
      } else {
        expect(h.slack.callsTo("reactions.add").map((call) => call.params.name)).toEqual(["hourglass_flowing_sand"]);
        expect(h.slack.reactionsOn("D1", ts)).toEqual([]);
      }
      await h.close();
      h_reset();
    }
  });

  const h_reset = () => (h = undefined);
});

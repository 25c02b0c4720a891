import { describe, expect, it } from "vitest";
import { silentLogger } from "../../src/log.js";
import { ChannelBudget } from "../../src/presenter/channel-budget.js";
import { RateLimitedError, type PostedMessage } from "../../src/contract/surface.js";
import { TurnPresenter } from "../../src/presenter/turn-presenter.js";
import { RecordingSurface, type SurfaceCall } from "../support/recording-surface.js";

/**
 * The presenter's streamed answers against a surface made of memory, driven by hand: what the
 * platform receives and when, for several turns sharing a channel, a rate limit, an expired reply.
 */
const INTERVAL_MS = 100;

function presenter(surface: RecordingSurface, budget: ChannelBudget, extra: { askerId?: string; placeholder?: PostedMessage } = {}): TurnPresenter {
  return new TurnPresenter({
    surface,
    question: {
      location: { channelId: "c1" },
      messageId: `q-${extra.askerId ?? "u1"}`,
      isDm: false,
      askerId: extra.askerId ?? "u1",
      text: "go",
      placeholder: extra.placeholder,
    },
    stepStartDelayMs: 0,
    maxAnswerMessages: 5,
    logger: silentLogger(),
    onThreadOpened: () => {},
    streaming: { intervalMs: INTERVAL_MS, budget },
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Feeds a presenter `count` words, one every `everyMs`. */
async function stream(view: TurnPresenter, count: number, everyMs: number): Promise<string> {
  let text = "";
  for (let i = 0; i < count; i++) {
    const word = `w${i} `;
    text += word;
    view.answerText({ type: "delta", text: word });
    await sleep(everyMs);
  }
  return text.trim();
}

const writes = (calls: SurfaceCall[]) => calls.filter((call) => call.op === "post" || call.op === "edit");

describe("streamed answers in the presenter", () => {
  it("writes nothing more once the answer is whole (answerDone) while its closing commits: a quick answer is posted once, by finish", async () => {
    const surface = new RecordingSurface();
    const view = presenter(surface, new ChannelBudget(5, 5 * INTERVAL_MS));
    view.answerText({ type: "delta", text: "All of it at once." });
    view.answerDone();
    // The closing waits for a group commit: a few passes of the event loop before finish.
    for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(writes(surface.calls)).toEqual([]);
    await view.finish({ turnId: "t1", status: "answered", outcome: "answer", text: "All of it at once." });
    const all = writes(surface.calls);
    expect(all.map((call) => [call.op, call.text])).toEqual([["post", "All of it at once."]]);
    expect(all[0]!.options?.interim).toBeFalsy();
  });

  it("keeps every turn in a channel within one budget of writes, in-between edits included", async () => {
    const surface = new RecordingSurface();
    const windowMs = 5 * INTERVAL_MS;
    const budget = new ChannelBudget(5, windowMs);
    const views = [presenter(surface, budget, { askerId: "u1" }), presenter(surface, budget, { askerId: "u2" }), presenter(surface, budget, { askerId: "u3" })];

    const texts = await Promise.all(views.map((view) => stream(view, 60, 20)));
    await Promise.all(views.map((view, i) => view.finish({ turnId: `t${i}`, status: "answered", outcome: "answer", text: texts[i]! })));

    const all = writes(surface.calls);
    const interim = all.filter((call) => call.options?.interim && call.op === "edit");
    expect(interim.length).toBeGreaterThan(0);
    // In any window, in-between edits only use what first posts and final edits left of the budget.
    for (const call of interim) {
      const inWindow = all.filter((other) => other.at > call.at - windowMs + 5 && other.at <= call.at);
      expect(inWindow.length).toBeLessThanOrEqual(5);
    }
    // Without the budget, three answers edited once per interval would have made about 3 × 12 edits.
    expect(interim.length).toBeLessThan(3 * 12);
    // Each answer ends whole.
    for (const [i, text] of texts.entries()) {
      const id = all.find((call) => call.op === "post" && call.options?.notify === `u${i + 1}`)!.id!;
      const last = all.filter((call) => call.id === id).at(-1)!;
      expect(last.text).toBe(text);
    }
  });

  it("after a rate limit, waits as asked and sends the text gathered meanwhile in one edit", async () => {
    const surface = new RecordingSurface();
    let limited = 0;
    surface.failEdit = (_message, _text, options) => {
      if (options.interim && limited++ === 0) throw new RateLimitedError(400);
    };
    const view = presenter(surface, new ChannelBudget(100, 1_000));

    const text = await stream(view, 40, 20);
    await view.finish({ turnId: "t", status: "answered", outcome: "answer", text });

    const edits = surface.calls.filter((call) => call.op === "edit");
    const refused = edits.find((call) => call.options?.interim)!;
    const next = edits[edits.indexOf(refused) + 1]!;
    expect(next.at - refused.at).toBeGreaterThanOrEqual(395);
    expect(next.text!.length).toBeGreaterThan(refused.text!.length);
    expect(edits.at(-1)!.text).toBe(text);
  });

  it("goes on in a new message when the slash command's reply can no longer be edited", async () => {
    const surface = new RecordingSurface();
    const placeholder = { id: "thinking", editableUntil: Date.now() - 1 };
    const view = presenter(surface, new ChannelBudget(100, 1_000), { placeholder });

    const text = await stream(view, 10, 10);
    await view.finish({ turnId: "t", status: "answered", outcome: "answer", text });

    expect(surface.calls.filter((call) => call.id === "thinking")).toEqual([]);
    const posted = writes(surface.calls).filter((call) => call.op === "post");
    expect(posted).toHaveLength(1);
    expect(surface.calls.filter((call) => call.id === posted[0]!.id).at(-1)!.text).toBe(text);
  });

  it("takes back a retracted preamble: the final messages are the answer's own", async () => {
    const surface = new RecordingSurface({ messageLimit: 40 });
    const view = presenter(surface, new ChannelBudget(100, 1_000));

    await stream(view, 30, 5);
    view.answerText({ type: "retracted" });
    view.answerText({ type: "delta", text: "Short answer." });
    await view.finish({ turnId: "t", status: "answered", outcome: "answer", text: "Short answer." });

    const removed = surface.calls.filter((call) => call.op === "remove").map((call) => call.id);
    const live = [...new Set(writes(surface.calls).map((call) => call.id))].filter((id) => !removed.includes(id));
    expect(live.map((id) => surface.calls.filter((call) => call.id === id && call.text !== undefined).at(-1)!.text)).toEqual(["Short answer."]);
  });
});

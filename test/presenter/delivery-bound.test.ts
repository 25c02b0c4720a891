import { afterEach, describe, expect, it, vi } from "vitest";
import type { Destination, PostedMessage, PostOptions } from "../../src/contract/surface.js";
import { TurnPresenter } from "../../src/presenter/turn-presenter.js";
import { captureLogs } from "../support/log-capture.js";
import { RecordingSurface } from "../support/recording-surface.js";

/** A platform that takes the answer's post and never answers it (a request that hangs). */
class HangingSurface extends RecordingSurface {
  override async post(to: Destination, text: string, options: PostOptions): Promise<PostedMessage> {
    if (options.kind === "answer") return new Promise(() => {});
    return super.post(to, text, options);
  }
}

describe("delivering a reply", () => {
  afterEach(() => vi.useRealTimers());

  it("gives up on a platform that never answers after 45 s, and logs the reply as not delivered", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
    const logs = captureLogs();
    const presenter = new TurnPresenter({
      surface: new HangingSurface(),
      question: { location: { channelId: "c1" }, messageId: "q1", isDm: false, askerId: "u1", text: "go" },
      stepStartDelayMs: 0,
      maxAnswerMessages: 5,
      logger: logs.logger,
      onThreadOpened: () => {},
    });
    let finished = false;
    const finish = presenter.finish({ turnId: "t1", status: "answered", outcome: "final", text: "the answer" }).then(() => (finished = true));

    await vi.advanceTimersByTimeAsync(44_000);
    expect(finished).toBe(false);
    await vi.advanceTimersByTimeAsync(1_000);
    await finish;

    expect(logs.lines.find((line) => /could not deliver the reply in time/.test(line.msg))).toMatchObject({ turnId: "t1", limitMs: 45_000 });
  });
});

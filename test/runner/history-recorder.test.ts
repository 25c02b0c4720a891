import { afterEach, describe, expect, it, vi } from "vitest";
import { silentLogger } from "../../src/log.js";
import { HistoryRecorder, type PendingEntry } from "../../src/runner/history-recorder.js";
import type { HistoryEntry, HistoryStore } from "../../src/store/history-store.js";

const entry = (messageId: string): PendingEntry => ({
  platform: "p",
  workspaceId: "w",
  channelId: "c",
  messageId,
  kind: "question",
  authorId: "u",
  authorName: "alice",
  text: `text of ${messageId}`,
  time: 1,
});

/** An index that keeps what it was given; `hold` makes its writes wait until released. */
function recordingIndex(hold = false) {
  const written: string[] = [];
  /** Each write's message ids, and each forgetting as "forget". */
  const writes: string[][] = [];
  const held: (() => void)[] = [];
  const index = {
    add: async (entries: readonly HistoryEntry[]) => {
      if (hold) await new Promise<void>((resolve) => held.push(resolve));
      written.push(...entries.map((e) => e.messageId));
      writes.push(entries.map((e) => e.messageId));
    },
    forgetMessages: async () => {
      writes.push(["forget"]);
      return { messages: 0 };
    },
  } as unknown as HistoryStore;
  return { index, written, writes, release: () => held.splice(0).forEach((resolve) => resolve()) };
}

describe("src/runner/history-recorder.ts: a search reads this process's queued writes (caughtUp)", () => {
  it("resolves once everything queued before the call is written, whichever phase of the event loop queued it", async () => {
    const { index, written } = recordingIndex();
    const recorder = new HistoryRecorder(index, silentLogger());
    // Queued from a setImmediate callback, as a turn whose closing was group-committed queues its exchange:
    // the recorder's own setImmediate then runs only in the next pass, after that pass's I/O.
    await new Promise<void>((resolve) =>
      setImmediate(() => {
        recorder.add(entry("m1"));
        recorder.add(entry("m2"));
        resolve();
      }),
    );
    await recorder.caughtUp();
    expect(written).toEqual(["m1", "m2"]);
    // Nothing queued: at once.
    await recorder.caughtUp();
  });

  it("waits a bounded time when the index does not answer", async () => {
    const { index, written, release } = recordingIndex(true);
    const recorder = new HistoryRecorder(index, silentLogger());
    recorder.add(entry("m1"));
    await recorder.caughtUp(30);
    expect(written).toEqual([]);
    release();
    await recorder.idle();
    expect(written).toEqual(["m1"]);
  });
});

/** A few passes of the event loop (setImmediate is real in these tests; only setTimeout is faked). */
const passes = async (count = 5) => {
  for (let i = 0; i < count; i++) await new Promise<void>((resolve) => setImmediate(resolve));
};

describe("src/runner/history-recorder.ts: exchanges that end within a second share one write (issue 30)", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("writes entries queued in separate events together once the gathering time is up", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { index, writes } = recordingIndex();
    const recorder = new HistoryRecorder(index, silentLogger());
    recorder.add(entry("m1"));
    await passes();
    recorder.add(entry("m2"));
    await passes();
    expect(writes).toEqual([]);
    vi.advanceTimersByTime(999);
    await passes();
    expect(writes).toEqual([]);
    vi.advanceTimersByTime(1);
    await passes();
    expect(writes).toEqual([["m1", "m2"]]);
  });

  it("a search of this process, a deletion and the store closing each write what gathered at once", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { index, writes } = recordingIndex();
    const recorder = new HistoryRecorder(index, silentLogger());
    recorder.add(entry("m1"));
    await recorder.caughtUp();
    expect(writes).toEqual([["m1"]]);

    recorder.add(entry("m2"));
    recorder.forget({ platform: "p", workspaceId: "w", channelId: "c", messageIds: ["m2"] });
    await passes();
    // In order: the message is indexed before its deletion is applied, so it does not come back.
    expect(writes).toEqual([["m1"], ["m2"], ["forget"]]);

    recorder.add(entry("m3"));
    await recorder.idle();
    expect(writes).toEqual([["m1"], ["m2"], ["forget"], ["m3"]]);
  });
});

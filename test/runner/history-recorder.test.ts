import { describe, expect, it } from "vitest";
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
  const held: (() => void)[] = [];
  const index = {
    add: async (entries: readonly HistoryEntry[]) => {
      if (hold) await new Promise<void>((resolve) => held.push(resolve));
      written.push(...entries.map((e) => e.messageId));
    },
  } as unknown as HistoryStore;
  return { index, written, release: () => held.splice(0).forEach((resolve) => resolve()) };
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

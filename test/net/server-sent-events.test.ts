import { describe, expect, it } from "vitest";
import { MAX_EVENT_CHARS, readServerSentEvents } from "../../src/net/server-sent-events.js";

type Event = { event: string | undefined; data: string };

/** A body that yields `chunks` and remembers whether its iteration was closed early (what frees a connection). */
function body(chunks: Uint8Array[]): AsyncIterable<Uint8Array> & { closed: boolean } {
  const source = {
    closed: false,
    async *[Symbol.asyncIterator]() {
      try {
        for (const chunk of chunks) yield chunk;
      } finally {
        source.closed = true;
      }
    },
  };
  return source;
}

async function eventsOf(chunks: Uint8Array[]): Promise<Event[]> {
  const events: Event[] = [];
  await readServerSentEvents(body(chunks), (event, data) => events.push({ event, data }));
  return events;
}

const encode = (text: string) => new TextEncoder().encode(text);

/**
 * Every kind of line ending, a comment, a field without a space, multi-line data, an event type,
 * empty data, an event name without data (no event), a character of four UTF-8 bytes, and a last
 * event the body ends in the middle of (discarded).
 */
const STREAM = [
  ": keep-alive comment\n",
  'data: {"text":"caf\u00e9 \u{1F600}"}\n\n',
  "event: update\r\ndata:first\r\ndata: second\r\n\r\n",
  "data: cr only\r\r",
  "event: lonely\n\n",
  "data:\n\n",
  "id: 7\nretry: 10\ndata: [DONE]\n\n",
  "data: never finished\n",
].join("");

const EXPECTED: Event[] = [
  { event: undefined, data: '{"text":"caf\u00e9 \u{1F600}"}' },
  { event: "update", data: "first\nsecond" },
  { event: undefined, data: "cr only" },
  { event: undefined, data: "" },
  { event: undefined, data: "[DONE]" },
];

describe("readServerSentEvents", () => {
  it("reads every event of a stream sent whole", async () => {
    expect(await eventsOf([encode(STREAM)])).toEqual(EXPECTED);
  });

  it("reads the same events whichever byte a chunk ends at, inside a UTF-8 character or between CR and LF", async () => {
    const bytes = encode(STREAM);
    for (let cut = 1; cut < bytes.length; cut++) {
      expect(await eventsOf([bytes.subarray(0, cut), bytes.subarray(cut)]), `cut at byte ${cut}`).toEqual(EXPECTED);
    }
    expect(await eventsOf([...bytes].map((byte) => Uint8Array.of(byte)))).toEqual(EXPECTED);
  });

  it("drops a byte-order mark before the first line", async () => {
    expect(await eventsOf([Uint8Array.of(0xef, 0xbb, 0xbf), encode("data: x\n\n")])).toEqual([{ event: undefined, data: "x" }]);
  });

  it("ends the stream, closing the body, when its callback throws", async () => {
    const source = body([encode("data: 1\n\n"), encode("data: 2\n\n"), encode("data: 3\n\n")]);
    const seen: string[] = [];
    const read = readServerSentEvents(source, (_event, data) => {
      seen.push(data);
      if (data === "2") throw new Error("bad chunk");
    });
    await expect(read).rejects.toThrow("bad chunk");
    expect(seen).toEqual(["1", "2"]);
    expect(source.closed).toBe(true);
  });

  it("refuses a line that never ends past its limit, without waiting for the rest", async () => {
    const piece = encode("x".repeat(1024 * 1024));
    const chunks = [encode("data: "), ...Array.from({ length: MAX_EVENT_CHARS / piece.length + 1 }, () => piece), encode("\n\n")];
    const source = body(chunks);
    await expect(readServerSentEvents(source, () => {})).rejects.toThrow(/a line of more than/);
    expect(source.closed).toBe(true);
  });

  it("refuses an event whose data lines add up past the limit", async () => {
    const line = encode(`data: ${"y".repeat(1024 * 1024)}\n`);
    const source = body(Array.from({ length: MAX_EVENT_CHARS / (1024 * 1024) + 1 }, () => line));
    await expect(readServerSentEvents(source, () => {})).rejects.toThrow(/an event of more than/);
  });
});

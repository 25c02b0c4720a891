import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { burstWriter } from "../../../src/platforms/terminal/burst-writer.js";

/** A stream that records what reaches it in each of its writes (one entry per write or writev). */
function recordingStream() {
  const writes: string[][] = [];
  const stream = new Writable({
    decodeStrings: false,
    write(chunk: string, _encoding, done) {
      writes.push([chunk]);
      done();
    },
    writev(chunks, done) {
      writes.push(chunks.map(({ chunk }) => chunk as string));
      done();
    },
  });
  return { stream, writes };
}

const nextEvent = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("src/platforms/terminal/burst-writer.ts: the lines of one burst of work reach the terminal in one write", () => {
  it("sends what one event printed (across its promise callbacks) as one write, in order, before the next event", async () => {
    const { stream, writes } = recordingStream();
    const { write } = burstWriter(stream);
    await Promise.resolve().then(() => {
      write("  🔧 circumference\n");
      return Promise.resolve().then(() => write("  ✅ circumference 49.07\n"));
    });
    write("  🔧 hypotenuse\n");
    await nextEvent();
    expect(writes).toEqual([["  🔧 circumference\n", "  ✅ circumference 49.07\n", "  🔧 hypotenuse\n"]]);

    write("bot: The circumference is about 49.07.");
    write("\n");
    await nextEvent();
    expect(writes.slice(1)).toEqual([["bot: The circumference is about 49.07.", "\n"]]);
  });

  it("keeps separate events' lines apart, each shown when its event ends", async () => {
    const { stream, writes } = recordingStream();
    const { write } = burstWriter(stream);
    write("first\n");
    await nextEvent();
    expect(writes).toEqual([["first\n"]]);
    write("second\n");
    await nextEvent();
    expect(writes).toEqual([["first\n"], ["second\n"]]);
  });

  it("writes each line at once to a stream that cannot hold its writes back", () => {
    const seen: string[] = [];
    const { write } = burstWriter({ write: (text: string) => seen.push(text) > 0 } as unknown as NodeJS.WritableStream);
    write("a\n");
    write("b\n");
    expect(seen).toEqual(["a\n", "b\n"]);
  });

  it("holds a piped terminal's lines until flushed (the answer ended), so a turn's steps and answer leave in one write", async () => {
    const { stream, writes } = recordingStream();
    const { write, flush } = burstWriter(stream, 50);
    write("  🔧 circumference\n");
    await nextEvent();
    write("  ✅ circumference 49.07\n");
    await nextEvent();
    expect(writes).toEqual([]);
    write("bot: The circumference is about 49.07.\n");
    flush();
    expect(writes).toEqual([["  🔧 circumference\n", "  ✅ circumference 49.07\n", "bot: The circumference is about 49.07.\n"]]);
  });

  it("sends what it holds after holdMs when nothing flushes it (a step of a long turn still shows)", async () => {
    const { stream, writes } = recordingStream();
    const { write } = burstWriter(stream, 30);
    write("  🔧 a slow tool\n");
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(writes).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(writes).toEqual([["  🔧 a slow tool\n"]]);
  });
});

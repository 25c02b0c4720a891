/*
 * A reader of server-sent events (text/event-stream, as the WHATWG HTML standard defines it), for
 * the model clients' streamed answers. The openai SDK's own reader hands every event through four
 * nested async generators and copies the rest of the buffered body at each event it cuts off:
 * measured on the started bot, that was most of what a streamed turn cost over a whole one. This
 * one decodes each chunk of the body once and calls back for each event as it completes.
 */

/** An event's data past this many characters (a line without an end, or data lines without a blank line) ends the stream: no model sends one. */
export const MAX_EVENT_CHARS = 8 * 1024 * 1024;

const LF = 10;
const CR = 13;
const COLON = 58;
const SPACE = 32;

/**
 * Reads `body` to its end and calls `onEvent` with each event's type (undefined when it named
 * none) and its data lines joined by "\n". Comments and the `id` and `retry` fields (for
 * reconnecting, which a model's stream never does) are skipped; an event with no data line is not
 * an event. A callback that throws ends the reading: the body's iteration is closed, which frees
 * its connection, and the error rejects the returned promise. UTF-8 split across chunks is decoded
 * whole; a leading byte-order mark is dropped.
 */
export async function readServerSentEvents(body: AsyncIterable<Uint8Array>, onEvent: (event: string | undefined, data: string) => void): Promise<void> {
  const decoder = new TextDecoder();
  const lines = new EventLines(onEvent);
  for await (const chunk of body) lines.push(decoder.decode(chunk, { stream: true }));
  lines.push(decoder.decode());
  // An event the body ended in the middle of is discarded, as the standard says.
}

/** Cuts decoded text into lines (ended by CRLF, LF or CR) and lines into events. */
class EventLines {
  /** The start of a line whose end has not come yet. */
  private pending = "";
  /** The last text ended with a CR: an LF opening the next one belongs to it. */
  private afterCr = false;
  private data: string | undefined;
  private event: string | undefined;

  constructor(private readonly onEvent: (event: string | undefined, data: string) => void) {}

  push(text: string): void {
    if (this.afterCr && text.length > 0) {
      this.afterCr = false;
      if (text.charCodeAt(0) === LF) text = text.slice(1);
    }
    // Streams from OpenAI-compatible servers end lines with LF alone; then one search per line is enough.
    const withCr = text.indexOf("\r") !== -1;
    let start = 0;
    for (;;) {
      const end = withCr ? lineEnd(text, start) : text.indexOf("\n", start);
      if (end === -1) break;
      const line = start === 0 && this.pending !== "" ? this.pending + text.slice(0, end) : text.slice(start, end);
      this.pending = "";
      start = end + 1;
      if (text.charCodeAt(end) === CR) {
        if (start === text.length) this.afterCr = true;
        else if (text.charCodeAt(start) === LF) start++;
      }
      this.line(line);
    }
    this.pending = start === 0 ? this.pending + text : text.slice(start);
    if (this.pending.length > MAX_EVENT_CHARS) throw new Error(`the event stream sent a line of more than ${MAX_EVENT_CHARS} characters`);
  }

  private line(line: string): void {
    if (line === "") {
      if (this.data !== undefined) this.onEvent(this.event, this.data);
      this.data = undefined;
      this.event = undefined;
      return;
    }
    if (line.charCodeAt(0) === COLON) return;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? "" : line.slice(line.charCodeAt(colon + 1) === SPACE ? colon + 2 : colon + 1);
    if (field === "data") {
      this.data = this.data === undefined ? value : `${this.data}\n${value}`;
      if (this.data.length > MAX_EVENT_CHARS) throw new Error(`the event stream sent an event of more than ${MAX_EVENT_CHARS} characters`);
    } else if (field === "event") {
      this.event = value === "" ? undefined : value;
    }
  }
}

/** The index of the first CR or LF in `text` from `start`, or -1. */
function lineEnd(text: string, start: number): number {
  const lf = text.indexOf("\n", start);
  const cr = text.indexOf("\r", start);
  if (lf === -1) return cr;
  if (cr === -1) return lf;
  return Math.min(lf, cr);
}

import type { Writable } from "node:stream";

/** What the terminal writes, and how it makes what it holds back go out now. */
export interface BurstWriter {
  write(text: string): void;
  /** Sends what is held back at once (an answer ended, the bot waits for typing). */
  flush(): void;
}

/**
 * What the terminal prints in one burst of work (a step's line and the next one's, an answer and
 * its line's end) leaves in one write: the stream is corked at the burst's first write and uncorked
 * once the callbacks the burst queued have run (a tick later), so nothing shows later than it did,
 * in the same order (the stream keeps it, whoever writes to it meanwhile). A piped terminal paid a
 * system call per line, six a turn with two steps (issue 30). A stream that cannot cork writes each.
 *
 * With `holdMs` (output that is not a terminal: a program reads it, as C's stdio buffers a pipe), a
 * burst is held up to that long, or until `flush`: a turn's steps and its answer leave in one
 * write, and the reader is woken once a turn instead of once a step (issue 30).
 */
export function burstWriter(output: NodeJS.WritableStream, holdMs = 0): BurstWriter {
  const stream = output as NodeJS.WritableStream & Partial<Pick<Writable, "cork" | "uncork">>;
  const { cork, uncork } = stream;
  if (typeof cork !== "function" || typeof uncork !== "function") return { write: (text) => void output.write(text), flush: () => {} };
  let corked = false;
  let timer: NodeJS.Timeout | undefined;
  const release = () => {
    if (!corked) return;
    corked = false;
    clearTimeout(timer);
    timer = undefined;
    uncork.call(stream);
  };
  return {
    write(text) {
      if (!corked) {
        corked = true;
        cork.call(stream);
        if (holdMs > 0) timer = setTimeout(release, holdMs);
        else process.nextTick(release);
      }
      output.write(text);
    },
    flush: release,
  };
}

import type { Writable } from "node:stream";

/**
 * What the terminal prints in one burst of work (a step's line and the next one's, an answer and
 * its line's end) leaves in one write: the stream is corked at the burst's first write and uncorked
 * once the callbacks the burst queued have run (a tick later), so nothing shows later than it did,
 * in the same order (the stream keeps it, whoever writes to it meanwhile). A piped terminal paid a
 * system call per line, six a turn with two steps (issue 30). A stream that cannot cork writes each.
 */
export function burstWriter(output: NodeJS.WritableStream): (text: string) => void {
  const stream = output as NodeJS.WritableStream & Partial<Pick<Writable, "cork" | "uncork">>;
  const { cork, uncork } = stream;
  if (typeof cork !== "function" || typeof uncork !== "function") return (text) => void output.write(text);
  let corked = false;
  const release = () => {
    corked = false;
    uncork.call(stream);
  };
  return (text) => {
    if (!corked) {
      corked = true;
      cork.call(stream);
      process.nextTick(release);
    }
    output.write(text);
  };
}

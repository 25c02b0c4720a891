import type { Readable } from "node:stream";

const LINE_TIMEOUT_MS = 30_000;

/**
 * The lines a child process prints, awaited one match at a time: `next(match)` resolves with the
 * next line `match` accepts, printed after the previous match; it rejects when none comes within
 * 30 s or the output ends first. One waiter at a time (the bench drives its children one turn after another).
 */
export class LineReader {
  private pending = "";
  private readonly lines: string[] = [];
  private waiter?: { match: (line: string) => boolean; resolve(line: string): void; reject(error: Error): void; timer: NodeJS.Timeout };
  private ended = false;

  constructor(
    output: Readable,
    private readonly name: string,
  ) {
    output.setEncoding("utf8");
    output.on("data", (chunk: string) => {
      this.pending += chunk;
      let end = this.pending.indexOf("\n");
      while (end !== -1) {
        this.lines.push(this.pending.slice(0, end));
        this.pending = this.pending.slice(end + 1);
        end = this.pending.indexOf("\n");
      }
      this.serve();
    });
    output.once("end", () => {
      this.ended = true;
      this.serve();
    });
  }

  next(match: (line: string) => boolean): Promise<string> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.fail(new Error(`${this.name}: no awaited line within ${LINE_TIMEOUT_MS} ms`)), LINE_TIMEOUT_MS);
      this.waiter = { match, resolve, reject, timer };
      this.serve();
    });
  }

  private serve(): void {
    const waiter = this.waiter;
    if (!waiter) {
      this.lines.length = 0;
      return;
    }
    while (this.lines.length > 0) {
      const line = this.lines.shift()!;
      if (!waiter.match(line)) continue;
      clearTimeout(waiter.timer);
      this.waiter = undefined;
      this.lines.length = 0;
      waiter.resolve(line);
      return;
    }
    if (this.ended) this.fail(new Error(`${this.name}: its output ended before the awaited line`));
  }

  private fail(error: Error): void {
    const waiter = this.waiter;
    if (!waiter) return;
    clearTimeout(waiter.timer);
    this.waiter = undefined;
    waiter.reject(error);
  }
}

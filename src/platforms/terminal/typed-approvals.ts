import type { Interface } from "node:readline";

/**
 * The terminal's lines, one at a time, readable while a turn runs (a typed yes/no answers a
 * request for approval): `peek` waits for a line without taking it, so a wait that loses a race
 * loses no line.
 */
export class LineQueue {
  private readonly lines: string[] = [];
  private ended = false;
  private waiters: (() => void)[] = [];

  constructor(readline: Interface) {
    readline.on("line", (line) => {
      this.lines.push(line);
      this.wake();
    });
    readline.on("close", () => {
      this.ended = true;
      this.wake();
    });
  }

  /** Resolves with the next line, still queued, or undefined at the end of input. */
  async peek(): Promise<string | undefined> {
    while (this.lines.length === 0 && !this.ended) await new Promise<void>((resolve) => this.waiters.push(resolve));
    return this.lines[0];
  }

  /** Takes the next line (after `peek` said there is one). */
  take(): string | undefined {
    return this.lines.shift();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) waiter();
  }
}

/** Requests for approval the terminal shows, oldest first: the next typed yes or no answers the first. */
export class TypedApprovals {
  private readonly waiting: string[] = [];
  private listeners: (() => void)[] = [];

  /** The request a typed answer decides now. */
  get current(): string | undefined {
    return this.waiting[0];
  }

  asked(id: string): void {
    this.waiting.push(id);
    this.notify();
  }

  closed(id: string): void {
    const index = this.waiting.indexOf(id);
    if (index >= 0) this.waiting.splice(index, 1);
    this.notify();
  }

  /** Resolves at the next request asked or closed. */
  changed(): Promise<void> {
    return new Promise((resolve) => this.listeners.push(resolve));
  }

  private notify(): void {
    const listeners = this.listeners;
    this.listeners = [];
    for (const listener of listeners) listener();
  }
}

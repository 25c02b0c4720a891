import type { UploadedFile } from "../multipart.js";

/** One REST request as the fake received it. `path` is relative to /api/v10 and decoded. */
export interface RestCall {
  method: string;
  path: string;
  /** The path as it arrived, still URL-encoded (e.g. `%40original`). */
  rawPath: string;
  query: Record<string, string>;
  body: any;
  /** Files uploaded with the call (multipart requests). */
  files: UploadedFile[];
  status: number;
  /** Arrival time, `performance.now()` clock. */
  at: number;
}

/** Makes matching requests fail, as Discord would answer them. */
export interface FailureRule {
  method?: string;
  path: RegExp;
  status: number;
  code?: number;
  message?: string;
  /** How many matching requests fail (default 1). */
  times?: number;
  headers?: Record<string, string>;
  body?: unknown;
}

/** Requests held unanswered (a slow Discord) until `release`; see FakeDiscord.hold. */
export interface HeldRequests {
  /** Resolves once a matching request arrived (it is then waiting, unanswered and not yet in `calls`). */
  readonly arrived: Promise<void>;
  /** Answers the held requests, and lets later matching ones through at once. */
  release(): void;
}

interface HoldRule {
  method?: string;
  path: RegExp;
  query?: Record<string, string>;
  arrive: () => void;
  released: Promise<void>;
}

const matches = (rule: { method?: string; path: RegExp; query?: Record<string, string> }, call: RestCall) =>
  (!rule.method || rule.method === call.method) &&
  rule.path.test(call.path) &&
  Object.entries(rule.query ?? {}).every(([name, value]) => call.query[name] === value);

/** Every answered REST call, in order, and the waits of tests for the calls they expect. */
export class RestCallLog {
  readonly calls: RestCall[] = [];
  private readonly waiters = new Set<() => void>();
  private readonly listeners = new Set<(call: RestCall) => void>();

  record(call: RestCall): void {
    this.calls.push(call);
    for (const listener of this.listeners) listener(call);
    for (const waiter of [...this.waiters]) waiter();
  }

  onCall(listener: (call: RestCall) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Resolves with the first value `check` finds among the calls so far or to come; rejects after `timeoutMs`. */
  until<T>(check: () => T | undefined, timeoutMs: number, what: string): Promise<T> {
    const found = check();
    if (found !== undefined) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const waiter = () => {
        const value = check();
        if (value === undefined) return;
        clearTimeout(timer);
        this.waiters.delete(waiter);
        resolve(value);
      };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        const recent = this.calls
          .slice(-8)
          .map((c) => `${c.method} ${c.path} → ${c.status}`)
          .join("\n  ");
        reject(new Error(`fake Discord: timed out after ${timeoutMs} ms waiting for ${what}. Last calls:\n  ${recent}`));
      }, timeoutMs);
      this.waiters.add(waiter);
    });
  }
}

/** What a test makes Discord do to matching requests: fail them, or hold them unanswered. */
export class InjectedFaults {
  private readonly failures: FailureRule[] = [];
  private readonly holds: HoldRule[] = [];

  failNext(rule: FailureRule): void {
    this.failures.push({ times: 1, ...rule });
  }

  hold(rule: { method?: string; path: RegExp; query?: Record<string, string> }): HeldRequests {
    let arrive!: () => void;
    let release!: () => void;
    const arrived = new Promise<void>((resolve) => (arrive = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    const held: HoldRule = { ...rule, arrive, released };
    this.holds.push(held);
    return {
      arrived,
      release: () => {
        const index = this.holds.indexOf(held);
        if (index !== -1) this.holds.splice(index, 1);
        release();
      },
    };
  }

  /** Waits while a hold matches the call (after telling the test it arrived). */
  async passHolds(call: RestCall): Promise<void> {
    const held = this.holds.find((rule) => matches(rule, call));
    if (!held) return;
    held.arrive();
    await held.released;
  }

  /** The failure a matching rule injects into this call, counting it down. */
  takeFailure(call: RestCall): FailureRule | undefined {
    const index = this.failures.findIndex((rule) => matches(rule, call));
    if (index === -1) return undefined;
    const rule = this.failures[index]!;
    rule.times = (rule.times ?? 1) - 1;
    if (rule.times <= 0) this.failures.splice(index, 1);
    return rule;
  }
}

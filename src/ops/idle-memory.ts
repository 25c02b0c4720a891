import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** How long no turn may have started or run before the memory a burst left behind is given back. */
export const IDLE_RELEASE_AFTER_MS = 10_000;
/** How often the bot's activity is looked at (a timer that never keeps the process alive). */
const CHECK_EVERY_MS = 1_000;

export interface IdleMemoryOptions {
  /** Turns started so far, ever (a counter): a change means the bot was busy since the last look. */
  turnsStarted: () => number;
  /** Turns running now. */
  inFlight: () => number;
  /** Gives the memory back (tests pass their own). */
  release?: () => void;
  checkMs?: number;
  now?: () => number;
}

/**
 * Gives the memory that a burst of turns left behind back to the system once the bot has been
 * idle for IDLE_RELEASE_AFTER_MS: one memory-reducing garbage collection per idle spell, and
 * only after turns ran (or, once, after start-up).
 *
 * Why it is needed: V8 13 (Node 24) keeps the pages a full collection frees in a pool, committed,
 * for the next cycle to reuse, and frees them only in a collection that reduces memory. After
 * 10,000 Slack turns the pool held 26-41 MB. V8 starts such a collection itself (its memory
 * reducer) only once it sees the allocation rate fall, which it measures at collections; at rest
 * none runs, and with --trace-memory-reducer it reported "high alloc" every 8 s for as long as
 * the bot stayed idle, so the pool was never given back.
 *
 * The collection takes the main thread for about 80 ms after a busy spell (two full collections,
 * 48 and 34 ms, after 10,000 Slack turns), when no turn runs.
 */
export class IdleMemoryRelease {
  private readonly timer: NodeJS.Timeout;
  private readonly now: () => number;
  private readonly release: () => void;
  private seenTurns: number;
  private busyAt: number;
  /** Turns ran (or the bot started) since the last release: the next idle spell gives their memory back. */
  private owed = true;

  constructor(private readonly options: IdleMemoryOptions) {
    this.now = options.now ?? (() => performance.now());
    this.release = options.release ?? releaseMemory;
    this.seenTurns = options.turnsStarted();
    this.busyAt = this.now();
    this.timer = setInterval(() => this.check(), options.checkMs ?? CHECK_EVERY_MS);
    this.timer.unref();
  }

  /**
   * Gives the memory back now, outside an idle spell: start-up calls this once the platforms are
   * connected, since loading the SDKs and connecting leaves garbage and a pool like a burst of turns
   * does. The next idle spell then owes nothing unless turns ran.
   */
  releaseNow(): void {
    this.owed = false;
    this.release();
  }

  /** Looks at the bot's activity once (the timer calls this). */
  check(): void {
    const turns = this.options.turnsStarted();
    if (turns !== this.seenTurns || this.options.inFlight() > 0) {
      this.seenTurns = turns;
      this.busyAt = this.now();
      this.owed = true;
      return;
    }
    if (!this.owed || this.now() - this.busyAt < IDLE_RELEASE_AFTER_MS) return;
    this.owed = false;
    this.release();
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

type GcFunction = (options: { type: "major"; execution: "sync"; flavor: "last-resort" }) => void;
let gcFunction: GcFunction | undefined;

/**
 * One full, memory-reducing garbage collection ("last resort": V8 collects until nothing more is
 * freed, then gives its pooled pages back). The collector is taken from a fresh context created
 * while --expose-gc is on, so no `gc` global appears where the bot's own code (or a plugin's) runs.
 */
export function releaseMemory(): void {
  if (!gcFunction) {
    setFlagsFromString("--expose-gc");
    try {
      gcFunction = runInNewContext("gc") as GcFunction;
    } finally {
      setFlagsFromString("--no-expose-gc");
    }
  }
  gcFunction({ type: "major", execution: "sync", flavor: "last-resort" });
}

/**
 * A turn's time limit (TURN_TIMEOUT_MS) that stops while the turn waits for people: `pause()` when
 * a request for approval starts waiting clears the timer and keeps the time left; `resume()` when
 * the last one is answered sets it again for that time. Nested pauses (parallel calls that each
 * wait for approval) count, so the clock only runs when nothing waits.
 */
export class TurnDeadline {
  private timer?: NodeJS.Timeout;
  private remainingMs: number;
  private armedAt = 0;
  private pauses = 0;
  private stopped = false;

  constructor(
    limitMs: number,
    private readonly onExpired: () => void,
  ) {
    this.remainingMs = limitMs;
    this.arm();
  }

  pause(): void {
    if (this.pauses++ > 0 || this.stopped) return;
    clearTimeout(this.timer);
    this.remainingMs -= performance.now() - this.armedAt;
  }

  resume(): void {
    if (--this.pauses > 0 || this.stopped) return;
    this.arm();
  }

  /** The turn ended: the timer never fires. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private arm(): void {
    this.armedAt = performance.now();
    this.timer = setTimeout(this.onExpired, Math.max(0, this.remainingMs));
  }
}

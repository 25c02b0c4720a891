/**
 * Bounded waits, one way for the whole bot. Every wait on the outside world (a platform, a tool,
 * a file host) goes through these two, so no wait outlives its turn.
 */

/** A signal that aborts when `parent` does or after `timeoutMs`, and the release of its timer. */
export interface Deadline {
  /** Made on first use: work that never reads it costs no AbortController. */
  readonly signal: AbortSignal;
  /** Whether the time ran out (rather than the parent aborting). */
  readonly expired: boolean;
  /** untilAborted(work, signal) without making the signal: most tools never read theirs. */
  until<T>(work: Promise<T>): Promise<T>;
  /** Clears the timer and the parent's listener: call it when the work settles. */
  release(): void;
}

/**
 * A strong timer rather than AbortSignal.any([parent, AbortSignal.timeout(ms)]). On Node 20 a
 * timeout signal only referenced by an `any` signal could be garbage collected before it fired,
 * and the composite then never aborted (a wait that hung for 30 s under CI's load); Node 22 and 24
 * no longer do that (test/hostile/deadline-after-gc.test.ts). The timer stays because it is 3 to 6
 * times cheaper per wait on Node 22 and 24 and leaves nothing behind once released; its controller
 * is only made when someone reads `signal` (an AbortSignal costs more to make than the rest together).
 */
export function deadline(parent: AbortSignal, timeoutMs: number, reason: () => unknown = () => new DOMException("the time ran out", "TimeoutError")): Deadline {
  let controller: AbortController | undefined;
  let expired = false;
  let ended: { reason: unknown } | undefined;
  const waiting = new Set<(reason: unknown) => void>();
  const end = (why: unknown) => {
    if (ended) return;
    ended = { reason: why };
    controller?.abort(why);
    for (const reject of waiting) reject(why);
    waiting.clear();
  };
  const onParentAbort = () => end(parent.reason);
  let timer: NodeJS.Timeout | undefined;
  if (parent.aborted) end(parent.reason);
  else {
    parent.addEventListener("abort", onParentAbort, { once: true });
    timer = setTimeout(() => {
      expired = true;
      end(reason());
    }, timeoutMs);
    // The work it bounds keeps the process alive if it must; the timer alone should not.
    timer.unref();
  }
  return {
    get signal() {
      if (!controller) {
        controller = new AbortController();
        if (ended) controller.abort(ended.reason);
      }
      return controller.signal;
    },
    get expired() {
      return expired;
    },
    until<T>(work: Promise<T>): Promise<T> {
      if (ended) {
        work.catch(() => undefined);
        return Promise.reject(ended.reason);
      }
      return new Promise<T>((resolve, reject) => {
        waiting.add(reject);
        work.then(
          (value) => {
            waiting.delete(reject);
            resolve(value);
          },
          (error: unknown) => {
            waiting.delete(reject);
            reject(error);
          },
        );
      });
    },
    release() {
      clearTimeout(timer);
      parent.removeEventListener("abort", onParentAbort);
    },
  };
}

/**
 * Waits for `work` only until `signal` aborts, then rejects with the signal's reason. The core
 * uses it around what platforms and tools do for it, so nothing they do can hold a turn past its
 * time (whatever they do with the signal).
 */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    work.catch(() => undefined);
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

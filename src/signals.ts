/**
 * Bounded waits, one way for the whole bot. Every wait on the outside world (a platform, a tool,
 * a file host) goes through these two, so no wait outlives its turn.
 */

/** A signal that aborts when `parent` does or after `timeoutMs`, and the release of its timer. */
export interface Deadline {
  signal: AbortSignal;
  /** Whether the time ran out (rather than the parent aborting). */
  readonly expired: boolean;
  /** Clears the timer and the parent's listener: call it when the work settles. */
  release(): void;
}

/**
 * A controller and a strong timer rather than AbortSignal.any([parent, AbortSignal.timeout(ms)]):
 * on Node 20 a timeout signal only referenced by an `any` signal can be garbage collected before
 * it fires, and the composite then never aborts (a wait that hung for 30 s under CI's load). It
 * is also several times cheaper per call and leaves nothing behind once released.
 */
export function deadline(parent: AbortSignal, timeoutMs: number, reason: () => unknown = () => new DOMException("the time ran out", "TimeoutError")): Deadline {
  const controller = new AbortController();
  let expired = false;
  if (parent.aborted) {
    controller.abort(parent.reason);
    return { signal: controller.signal, expired, release() {} };
  }
  const onParentAbort = () => controller.abort(parent.reason);
  parent.addEventListener("abort", onParentAbort, { once: true });
  const timer = setTimeout(() => {
    expired = true;
    controller.abort(reason());
  }, timeoutMs);
  // The work it bounds keeps the process alive if it must; the timer alone should not.
  timer.unref();
  return {
    signal: controller.signal,
    get expired() {
      return expired;
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

/**
 * A model call's own abort: its controller, which the turn's signal also aborts until `release`
 * (so that a stall, or the call's timeout, ends this call alone).
 */
export function callAbort(signal: AbortSignal): { controller: AbortController; release(): void } {
  const controller = new AbortController();
  const abort = () => controller.abort();
  if (signal.aborted) abort();
  else signal.addEventListener("abort", abort, { once: true });
  return { controller, release: () => signal.removeEventListener("abort", abort) };
}

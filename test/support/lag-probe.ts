/**
 * Measures how late a 10 ms interval fires: the longest delay is how long the event loop was
 * blocked (a chat event, a health check or another turn would have waited that long).
 */
export function startLagProbe(intervalMs = 10): { stop(): number } {
  let worst = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last - intervalMs);
    last = now;
  }, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      return Math.round(worst);
    },
  };
}

/** The q-th quantile (0..1) by nearest rank; NaN for no samples. */
export function quantile(samples: readonly number[], q: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank]!;
}

export const median = (samples: readonly number[]): number => quantile(samples, 0.5);

export const sum = (samples: readonly number[]): number => samples.reduce((total, x) => total + x, 0);

/** Rounds for reports: keeps `digits` significant digits, so 0.0123 and 1234 both read well. */
export function round(value: number, digits = 3): number {
  if (!Number.isFinite(value) || value === 0) return value;
  return Number(value.toPrecision(digits));
}

export const toMb = (bytes: number): number => round(bytes / (1024 * 1024), 4);

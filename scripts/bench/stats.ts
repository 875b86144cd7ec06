/** The nearest-rank percentile (p from 0 to 100) of ascending samples; NaN when there are none. */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : NaN;
}

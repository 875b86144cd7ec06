/**
 * CPU time of a call, for the "no work grows faster than input" checks: CPU rather than wall
 * time, so other processes on a shared machine do not count. The fastest of a few runs after a
 * warm-up measures the input's cost, not a garbage collection or the first compilation; work
 * that grows faster than its input is slow on every run.
 */
export const CPU_BUDGET_MS = 50;

export function cpuMillis(run: () => unknown, runs = 3): number {
  run();
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const start = process.cpuUsage();
    run();
    const used = process.cpuUsage(start);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  return best;
}

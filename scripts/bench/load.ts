/**
 * Load: virtual users (workers), each with its own client address, sending requests in a loop.
 * Only successful requests give a latency; anything else is counted by its reason.
 */
import { CLIENTS, PAIR_S, PHASE_BUDGET_MS, ROUNDS } from "./config";
import { reportFailures } from "./report";
import { percentile } from "./stats";

export type Outcome = { latencies: number[]; failures: Map<string, number>; skipped: number; seconds: number };
/** A call to measure: `send` makes one request as virtual user `worker` and throws when it fails. */
export type Target = { name: string; send: (worker: number) => Promise<void> };

export const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** A fixed number of requests through `concurrency` workers; none is sent after PHASE_BUDGET_MS. */
export async function runLoad(total: number, concurrency: number, send: (i: number, worker: number) => Promise<void>): Promise<Outcome> {
  const latencies: number[] = [];
  const failures = new Map<string, number>();
  let next = 0;
  let skipped = 0;
  const deadline = Date.now() + PHASE_BUDGET_MS;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      while (next < total) {
        const i = next++;
        if (Date.now() > deadline) {
          skipped++;
          continue;
        }
        const t0 = performance.now();
        try {
          await send(i, worker);
          latencies.push(performance.now() - t0);
        } catch (error) {
          const reason = message(error);
          failures.set(reason, (failures.get(reason) ?? 0) + 1);
        }
      }
    }),
  );
  return { latencies, failures, skipped, seconds: (performance.now() - started) / 1000 };
}

/** `concurrency` workers sending for `seconds`. */
export async function runFor(
  seconds: number,
  concurrency: number,
  send: (worker: number) => Promise<void>,
): Promise<Outcome & { total: number }> {
  const latencies: number[] = [];
  const failures = new Map<string, number>();
  const deadline = Date.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      while (Date.now() < deadline) {
        const t0 = performance.now();
        try {
          await send(worker);
          latencies.push(performance.now() - t0);
        } catch (error) {
          const reason = message(error).slice(0, 60);
          failures.set(reason, (failures.get(reason) ?? 0) + 1);
        }
      }
    }),
  );
  const failed = [...failures.values()].reduce((a, b) => a + b, 0);
  return { latencies, failures, skipped: 0, seconds: (performance.now() - started) / 1000, total: latencies.length + failed };
}

const throughput = (o: Outcome) => o.latencies.length / o.seconds;
const sortedLatencies = (o: Outcome) => [...o.latencies].sort((a, b) => a - b);
const p99Of = (o: Outcome) => percentile(sortedLatencies(o), 99);
const p50Of = (o: Outcome) => percentile(sortedLatencies(o), 50);
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
/** How far the runs of one kind spread: (max - min) / mean of their req/s, the machine's noise. */
const spread = (values: number[]) =>
  values.length > 1 ? `${((100 * (Math.max(...values) - Math.min(...values))) / mean(values)).toFixed(0)}%` : "-";

/**
 * The paired runs: ROUNDS rounds; in each, every target runs PAIR_S seconds at CLIENTS clients
 * right after its own run of the baseline, in an order that rotates every round. Each ratio pairs
 * a run with the baseline run just before it, so a burst of load from elsewhere on the machine
 * lands on both sides. Answers rows for printAlternate (report.ts) and the failed requests.
 */
export async function alternate(baseline: Target, targets: Target[]): Promise<{ rows: string[][]; errors: number }> {
  const results = targets.map((target) => ({ target, pairs: [] as { base: Outcome; run: Outcome }[] }));
  for (let round = 0; round < ROUNDS; round++) {
    for (let k = 0; k < results.length; k++) {
      const entry = results[(k + round) % results.length]!;
      const base = await runFor(PAIR_S, CLIENTS, baseline.send);
      const run = await runFor(PAIR_S, CLIENTS, entry.target.send);
      entry.pairs.push({ base, run });
    }
  }
  let errors = 0;
  const rows = results.map(({ target, pairs }) => {
    for (const { base, run } of pairs) errors += reportFailures(baseline.name, base) + reportFailures(target.name, run);
    const runs = pairs.map((p) => p.run);
    const bases = pairs.map((p) => p.base);
    const all = (o: Outcome[]) => o.flatMap((x) => x.latencies).sort((a, b) => a - b);
    return [
      target.name,
      mean(runs.map(throughput)).toFixed(0),
      percentile(all(runs), 50).toFixed(1),
      percentile(all(runs), 99).toFixed(1),
      mean(bases.map(throughput)).toFixed(0),
      percentile(all(bases), 50).toFixed(1),
      percentile(all(bases), 99).toFixed(1),
      `${mean(pairs.map((p) => throughput(p.run) / throughput(p.base))).toFixed(2)}x`,
      `${mean(pairs.map((p) => p50Of(p.run) / p50Of(p.base))).toFixed(2)}x`,
      `${mean(pairs.map((p) => p99Of(p.run) / p99Of(p.base))).toFixed(1)}x`,
      `${spread(runs.map(throughput))} / ${spread(bases.map(throughput))}`,
    ];
  });
  return { rows, errors };
}

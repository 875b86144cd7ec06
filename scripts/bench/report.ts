/** The bench's tables: figures per phase, failures by reason, and the paired runs' ratios. */
import { PHASE_BUDGET_MS } from "./config";
import type { Outcome } from "./load";
import { percentile } from "./stats";

export type Row = { name: string; total: number; concurrency: number; outcome: Outcome; expectFailures?: boolean };

/** Prints the failures by reason; returns how many count as errors. */
export function reportFailures(name: string, outcome: Outcome, expectFailures = false): number {
  for (const [reason, n] of outcome.failures) console.log(`  ${name}: ${n} x ${reason}`);
  if (outcome.skipped) console.log(`  ${name}: ${outcome.skipped} not sent within the ${PHASE_BUDGET_MS / 1000} s budget`);
  // The flood's refusals are its expected answers, not failures of the app.
  return expectFailures ? 0 : [...outcome.failures.values()].reduce((a, b) => a + b, 0) + outcome.skipped;
}

/** A table: the first column left-aligned, the figures right-aligned. */
export function printTable(header: string[], table: string[][]): void {
  const widths = header.map((h, c) => Math.max(h.length, ...table.map((r) => r[c]!.length)));
  const line = (cells: string[]) => cells.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join("  ");
  console.log(`\n${line(header)}\n${widths.map((w) => "-".repeat(w)).join("  ")}`);
  for (const r of table) console.log(line(r));
}

/** The phases' figures and their failures; returns how many requests failed. */
export function report(rows: Row[]): number {
  const header = ["phase", "requests", "conc", "ok", "errors", "req/s", "median", "p95", "p99", "max (ms)"];
  const table = rows.map(({ name, total, concurrency, outcome: o }) => {
    const sorted = [...o.latencies].sort((a, b) => a - b);
    const errors = total - o.latencies.length;
    return [name, total, concurrency, o.latencies.length, errors, (o.latencies.length / o.seconds).toFixed(1)]
      .concat([50, 95, 99, 100].map((p) => percentile(sorted, p).toFixed(1)))
      .map(String);
  });
  printTable(header, table);
  return rows.reduce((errors, { name, outcome, expectFailures }) => errors + reportFailures(name, outcome, expectFailures), 0);
}

/** The columns of alternate()'s rows (load.ts): "ratio" is of req/s (run / base), the latency ratios are run / base ms. */
const ALTERNATE_HEADER = [
  "call",
  "req/s",
  "p50",
  "p99",
  "base req/s",
  "base p50",
  "base p99",
  "ratio",
  "p50 ratio",
  "p99 ratio",
  "spread run/base",
];
export const printAlternate = (rows: string[][]) => printTable(ALTERNATE_HEADER, rows);
/** Where a row of alternate()'s holds the ratio of requests per second (run / base). */
const RATIO_COLUMN = ALTERNATE_HEADER.indexOf("ratio");
/** Where a row of alternate()'s holds the p50 ratio (run / base). */
const P50_RATIO_COLUMN = ALTERNATE_HEADER.indexOf("p50 ratio");

/**
 * Each row's verdict against its target: its p50 ratio at most `target` ("p50"), or its ratio of
 * requests per second at least `target` ("throughput").
 */
export function printVerdicts(rows: string[][], measure: "p50" | "throughput", target: number): void {
  for (const row of rows) {
    const ratio = Number.parseFloat(row[measure === "p50" ? P50_RATIO_COLUMN : RATIO_COLUMN]!);
    const met = measure === "p50" ? ratio <= target : ratio >= target;
    const what = measure === "p50" ? "p50" : "requests per second";
    console.log(`  ${row[0]}: ${what} ${ratio.toFixed(2)}x, target ${target}x: ${met ? "met" : "MISSED"}`);
  }
}

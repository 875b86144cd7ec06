/**
 * The bench's settings, read once from the environment (README, Configuration: BENCH_*). Every
 * section reads its own extra settings beside its code; these are the ones the shared parts use.
 */

const positive = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
};

/** BENCH_PORT: several worktrees on one machine each bench on a port of their own. */
export const PORT = Number(process.env.BENCH_PORT ?? 3199);
export const ORIGIN = `http://127.0.0.1:${PORT}`;
/** BENCH_DIST_DIR: with BENCH_SKIP_BUILD=1, another production build of this tree (the browser tests' one). */
export const DIST_DIR = process.env.BENCH_DIST_DIR ?? ".next-bench";
/** Timed runs: seconds each and clients at once (60 s at 50 clients unless told otherwise), and the flood's seconds. */
export const DURATION_S = positive("BENCH_DURATION_S", 60);
export const CLIENTS = Math.round(positive("BENCH_CLIENTS", 50));
export const FLOOD_S = positive("BENCH_FLOOD_S", 30);
/** The alternating runs: rounds, and seconds of each run. */
export const ROUNDS = Math.round(positive("BENCH_ROUNDS", 3));
export const PAIR_S = positive("BENCH_PAIR_S", 5);
/** How the paired runs are set, for a section's heading. */
export const PAIRED_SETTINGS = `${ROUNDS} rounds of ${PAIR_S} s per call and baseline at ${CLIENTS} clients (BENCH_ROUNDS, BENCH_PAIR_S, BENCH_CLIENTS)`;
export const DATABASES = (process.env.BENCH_DATABASES ?? "pglite,postgres").split(",").map((kind) => kind.trim());
for (const kind of DATABASES)
  if (kind !== "postgres" && kind !== "pglite") throw new Error(`BENCH_DATABASES: unknown "${kind}" (pglite, postgres)`);
/** The local Postgres the bench makes its databases on (as the tests do). */
export const ADMIN_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
/** The sections to run (scripts/bench/sections.ts), comma-separated; the HTTP bench alone by default. */
export const SECTION_NAMES = (process.env.BENCH_SECTIONS ?? "http,deploy").split(",").map((name) => name.trim());

export const REQUEST_TIMEOUT_MS = 15_000;
/** No phase runs longer than this; requests not sent by then count as errors. */
export const PHASE_BUDGET_MS = 180_000;
export const READY_TIMEOUT_MS = 90_000;

/**
 * `npm run bench`: runs the sections BENCH_SECTIONS names (sections.ts; `http` and `deploy` by default)
 * and prints their figures; exits 1 when a request failed. Whatever a section started (servers,
 * databases) is stopped and dropped at the end, also on failure and on Ctrl-C (cleanup.ts).
 *
 * A quick run (~3 min): BENCH_ROUNDS=2 BENCH_PAIR_S=3 BENCH_DURATION_S=3 BENCH_FLOOD_S=3.
 * BENCH_CPU_PROF=<folder> makes the server write a V8 CPU profile (.cpuprofile) there when it stops.
 */
import { SECTION_NAMES } from "./config";
import { cleanUpOnSignals, cleanup } from "./cleanup";
import { message } from "./load";
import { SECTIONS } from "./sections";
import { newSecret } from "./server";

async function main(): Promise<number> {
  // The app's configuration is read once per process (lib/env.ts): sections that call its
  // functions in process (directory and discover sign cursors) need a secret before the first read.
  process.env.AUTH_SECRET ??= newSecret();
  const unknown = SECTION_NAMES.filter((name) => !(name in SECTIONS));
  if (unknown.length) throw new Error(`BENCH_SECTIONS: unknown ${unknown.join(", ")} (${Object.keys(SECTIONS).join(", ")})`);
  let errors = 0;
  for (const [name, run] of Object.entries(SECTIONS)) if (SECTION_NAMES.includes(name)) errors += await run();
  if (errors) console.error(`\n${errors} request(s) failed.`);
  return errors ? 1 : 0;
}

cleanUpOnSignals();
let exitCode = 1;
try {
  exitCode = await main();
} catch (error) {
  console.error(`bench failed: ${message(error)}`);
} finally {
  await cleanup();
}
// Explicit: keep-alive sockets or a lingering driver must not hold the process open.
process.exit(exitCode);

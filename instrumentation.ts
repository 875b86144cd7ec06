/**
 * Runs when a server instance starts, before it answers requests: redacts every error logged
 * (lib/log; Next's own logging of thrown errors included), stops on a bad configuration with one
 * line naming what to set, then applies pending migrations.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    (await import("./lib/log")).installLogRedaction();
    const { configurationProblem } = await import("./lib/env");
    const problem = configurationProblem();
    // `next build` loads this too; only a serving instance needs the full configuration.
    if (problem && process.env.NEXT_PHASE !== "phase-production-build") {
      console.error(problem);
      process.exit(1);
    }
    const { getDb } = await import("./db/client");
    await getDb();
  }
}

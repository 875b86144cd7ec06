/**
 * Runs when a server instance starts, before it answers requests: redacts every error logged
 * (lib/log; Next's own logging of thrown errors included) and stops on a bad configuration with
 * one line naming what to set. Nothing else a request may not need: the database opens on the
 * first request that reads it (db/client.ts: migrated then, or in serverless mode checked as
 * migrated), so a cold start that answers a prerendered page or a place search never waits for
 * it. A preview's first instance seeds the demo. Under server.ts, the due work (lib/scheduled) then runs
 * every minute.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    (await import("./lib/log")).installLogRedaction();
    const { configurationProblem, isPreview } = await import("./lib/env");
    const problem = configurationProblem();
    // `next build` loads this too; only a serving instance needs the full configuration.
    if (process.env.NEXT_PHASE === "phase-production-build") return;
    if (problem) {
      console.error(problem);
      process.exit(1);
    }
    // server.ts asks for it: a server of its own runs the due work every minute (serverless has a cron).
    if (process.env.RUN_DUE_WORK_IN_PROCESS === "1") {
      const openDb = () => import("./db/client").then(({ getDb }) => getDb());
      (await import("./lib/scheduled/schedule")).runDueWorkEveryMinute(openDb);
    }
    if (isPreview()) {
      const { seedPreviewOnce } = await import("./lib/demo/preview");
      if ((await seedPreviewOnce()) === "seeded") console.log("[preview] Seeded the demo couples on this preview's empty database.");
    }
  }
}

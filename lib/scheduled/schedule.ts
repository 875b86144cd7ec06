import "server-only";
import type { Db } from "@/db/client";
import { describeError } from "@/lib/log";
import { onShutdown } from "@/lib/shutdown";

/** How often a server of its own (server.ts) runs the due work in process. */
const EVERY_MS = 60_000;

/**
 * Runs the due work (./service) every minute in this process (a run still going is not
 * overlapped); errors are logged, never thrown. The work's code, and the database, load with the
 * first run, not with the server's start.
 */
export function runDueWorkEveryMinute(db: () => Promise<Db>): void {
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    if (running) return;
    running = Promise.all([db(), import("./service")])
      .then(([opened, { runDueWork }]) => runDueWork(opened))
      .catch((error: unknown) => console.error("[due] run failed", describeError(error)))
      .finally(() => (running = null));
  }, EVERY_MS);
  timer.unref();
  // A run still going finishes before the database closes (each of its steps is its own transaction).
  onShutdown("work", async () => {
    clearInterval(timer);
    await running;
  });
}

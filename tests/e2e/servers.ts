/**
 * Servers of a browser test's own (scripts/e2e-servers.ts runs them beside Playwright's webServer):
 * server.ts on the same build, database and secret, on a port of the test's worker, with that
 * port's APP_URL. A test may stop and start its own server (a restart under open live streams)
 * while every other test keeps Playwright's. Pure Node: the supervisor imports its rules from here.
 */
import { readFile } from "node:fs/promises";

/** Where the supervisor of the servers beside `port` writes its control endpoint's address. */
export const controlFile = (port: number) => `test-results/e2e-servers-${port}.json`;

/** At most one own server per worker at once, for up to this many workers (playwright.config.ts runs two). */
export const OWN_SERVERS = 4;

/**
 * Why no test may have a server of its own beside the run's, or null. Without DATABASE_URL the
 * run's database is a PGlite folder (scripts/e2e-server.sh), which one process alone may open
 * (db/client.ts): a second server on it would corrupt it, and could not hear the first's live events.
 */
export const ownServerRefusal = (env: Record<string, string | undefined>): string | null =>
  env.DATABASE_URL ? null : "a server of a test's own needs Postgres (DATABASE_URL): the run's PGlite folder is one process's";

/** The own server of the worker `parallelIndex` listens on a port after the tests' own. */
export const ownPort = (port: number, parallelIndex: number): number => {
  if (parallelIndex >= OWN_SERVERS) throw new Error(`at most ${OWN_SERVERS} workers have a server of their own`);
  return port + 1 + parallelIndex;
};

export type OwnServer = {
  /** Why it cannot run here (see ownServerRefusal), or null. */
  refusal: string | null;
  /** Where it serves (its APP_URL). */
  url: string;
  /** Starts it; resolves once it answers requests. */
  start(): Promise<void>;
  /** Stops it; resolves once it has exited (every connection to it closed). */
  stop(): Promise<void>;
};

/** The own server of the tests on `port`'s worker `parallelIndex`, through the supervisor's control endpoint. */
export async function ownServer(port: number, parallelIndex: number): Promise<OwnServer> {
  const { url: control, refusal } = JSON.parse(await readFile(controlFile(port), "utf8")) as { url: string; refusal: string | null };
  const own = ownPort(port, parallelIndex);
  const ask = async (action: "start" | "stop") => {
    const response = await fetch(`${control}/${action}?port=${own}`, { method: "POST" });
    if (!response.ok) throw new Error(`${action} the server on ${own}: ${response.status} ${await response.text()}`);
  };
  return { refusal, url: `http://localhost:${own}`, start: () => ask("start"), stop: () => ask("stop") };
}

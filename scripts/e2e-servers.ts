/**
 * The browser tests' app servers (scripts/e2e-server.sh runs this once the app is built, migrated
 * and seeded): the app's own server, compiled server.ts as `npm start` runs it, on PORT for every test;
 * and, when a test asks, a server of its own on a port after it (tests/e2e/servers.ts), same
 * build, database and secret, its APP_URL its own port, which the test may stop and start again.
 * A test asks through a control endpoint on loopback whose address is written to controlFile:
 *   POST /start?port=N  starts the server on N; answers once it answers requests
 *   POST /stop?port=N   stops it; answers once it has exited
 * Own servers need Postgres: on the PGlite fallback both answer 409 with the reason, also written
 * to controlFile (ownServerRefusal), and a test that needs one is skipped.
 * Every server stays in this process's group: Playwright's stop (the group killed) stops them too.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";
import { controlFile, OWN_SERVERS, ownPort, ownServerRefusal } from "../tests/e2e/servers";

const PORT = Number(process.env.PORT);
const OWN_PORTS = new Set(Array.from({ length: OWN_SERVERS }, (_, index) => ownPort(PORT, index)));
const START_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 5_000;
const REFUSAL = ownServerRefusal(process.env);

const servers = new Map<number, ChildProcess>();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

/** Resolves once the server on `port` answers its liveness check (a slow first answer is waited for, not cut off). */
async function serving(port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline && !exited(child)) {
    try {
      await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(START_TIMEOUT_MS) });
      return;
    } catch {
      await sleep(200);
    }
  }
  throw new Error(`the server on port ${port} did not start`);
}

async function start(port: number): Promise<void> {
  const running = servers.get(port);
  if (running) return serving(port, running);
  const appUrl = port === PORT ? process.env.APP_URL : `http://localhost:${port}`;
  // The app's server as `npm start` runs it: compiled into the build (scripts/build-server.ts).
  const child = spawn(process.execPath, [path.join(process.env.NEXT_DIST_DIR ?? ".next", "server.mjs")], {
    env: { ...process.env, PORT: String(port), APP_URL: appUrl },
    stdio: ["ignore", "inherit", "inherit"],
  });
  servers.set(port, child);
  child.once("exit", (code, signal) => {
    if (servers.get(port) === child) servers.delete(port);
    // The tests' own server ending ends the run's server, as when it ran alone.
    if (port === PORT) {
      console.error(`[e2e-servers] the server on port ${port} exited (${signal ?? code})`);
      shutDown(code ?? 1);
    }
  });
  await serving(port, child);
}

async function stop(port: number): Promise<void> {
  const child = servers.get(port);
  if (!child) return;
  const gone = new Promise((resolve) => child.once("exit", resolve));
  if (!exited(child)) child.kill("SIGTERM");
  if ((await Promise.race([gone.then(() => true), sleep(STOP_TIMEOUT_MS).then(() => false)])) === false) child.kill("SIGKILL");
  await gone;
}

function shutDown(code: number): never {
  for (const child of servers.values()) if (!exited(child)) child.kill("SIGKILL");
  process.exit(code);
}
process.on("SIGTERM", () => shutDown(0));
process.on("SIGINT", () => shutDown(0));

const control = createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://control");
  const port = Number(url.searchParams.get("port"));
  const action = url.pathname === "/start" ? start : url.pathname === "/stop" ? stop : null;
  if (req.method !== "POST" || !action || !OWN_PORTS.has(port)) {
    res.writeHead(404).end(`POST /start or /stop with port one of ${[...OWN_PORTS].join(", ")}`);
    return;
  }
  if (REFUSAL) {
    res.writeHead(409).end(REFUSAL);
    return;
  }
  action(port).then(
    () => res.writeHead(204).end(),
    (error: unknown) => res.writeHead(500).end(String(error)),
  );
});
control.listen(0, "127.0.0.1", () => {
  const address = control.address();
  if (!address || typeof address === "string") throw new Error("the control endpoint has no port");
  const file = controlFile(PORT);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify({ url: `http://127.0.0.1:${address.port}`, refusal: REFUSAL }));
  start(PORT).catch((error: unknown) => {
    console.error("[e2e-servers]", error);
    shutDown(1);
  });
});

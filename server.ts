/**
 * `npm start` and `npm run app` (and `npm run dev` with --dev): Next's request handler behind the
 * app's own server, so the client address comes from the socket (see lib/http/client-address.ts).
 * Listens on HOST:PORT, 127.0.0.1:3000 by default.
 *
 * `npm run build` compiles this file into the build folder (`<build>/server.mjs`, scripts/build-server.ts),
 * and production runs that with plain Node: no TypeScript loader at start. `npm run dev` runs it through tsx.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import next from "next";
import { closeGracefully, createAppServer, nextHostname, readyLines, SHUTDOWN_GRACE_MS } from "./lib/http/app-server";
import { configurationProblem, devOutboxEnabled, env } from "./lib/env";
import { strictTransportSecurity } from "./lib/csp/headers";
import { describeError } from "./lib/log";
import { THREAD_POOL_SIZE } from "./lib/thread-pool";

// Larger than the password and image slots (lib/thread-pool.ts), which would otherwise hold all of
// libuv's default 4 threads and queue file reads and look-ups behind them. libuv reads it at the
// pool's first job: nothing the imports above run at load queues one. A size set outside wins.
process.env.UV_THREADPOOL_SIZE ??= String(THREAD_POOL_SIZE);

const dev = process.argv.includes("--dev");
// As `next start` / `next dev` would; lib/env.ts reads it.
Object.assign(process.env, { NODE_ENV: process.env.NODE_ENV || (dev ? "development" : "production") });

const problem = configurationProblem();
if (problem) {
  console.error(problem);
  process.exit(1);
}

// Read by instrumentation.ts: a server of its own runs the due work (lib/scheduled) every minute in
// process, where serverless deployments have the cron of vercel.json.
process.env.RUN_DUE_WORK_IN_PROCESS = "1";

/**
 * In production, Next starts from the configuration the build recorded beside itself, as its own
 * standalone server does (the same variable): evaluating next.config.ts again would load SWC to
 * compile it, and everything it imports, at every start. The compiled server sits in that folder.
 */
if (!dev) {
  const buildFolder = path.dirname(fileURLToPath(import.meta.url));
  const { config } = JSON.parse(readFileSync(path.join(buildFolder, "required-server-files.json"), "utf8")) as { config: unknown };
  process.env.__NEXT_PRIVATE_STANDALONE_CONFIG = JSON.stringify(config);
}

const { APP_URL, HOST, PORT, TRUSTED_PROXY_HOPS } = env();
const app = next({ dev, hostname: nextHostname(HOST), port: PORT });
await app.prepare();
const server = createAppServer(app.getRequestHandler(), {
  trustedProxyHops: TRUSTED_PROXY_HOPS,
  strictTransportSecurity: strictTransportSecurity(),
}).listen(PORT, HOST, () => {
  for (const line of readyLines({ appUrl: APP_URL, host: HOST, port: PORT, dev, outbox: devOutboxEnabled() })) console.log(line);
});

/** Past this a stop that hangs ends anyway: under the 30 s most platforms wait before they kill. */
const STOP_DEADLINE_MS = 25_000;
let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    // A second Ctrl-C while stopping means now.
    if (stopping) process.exit(130);
    stopping = true;
    console.log("Stopping: finishing the requests in flight, then closing the database.");
    setTimeout(() => process.exit(1), STOP_DEADLINE_MS).unref();
    // In development what is in flight is the developer's own: a second is grace enough.
    closeGracefully(server, dev ? 1_000 : SHUTDOWN_GRACE_MS).then(
      () => process.exit(0),
      (error: unknown) => {
        console.error("[server] could not stop cleanly", describeError(error));
        process.exit(1);
      },
    );
  });
}

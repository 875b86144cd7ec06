import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { isLoopback, trustedClientAddress } from "./client-address";
import { earlyRefusal, refusalBody } from "./early-refusal";
import { staticSecurityHeaders } from "@/lib/csp/headers";
import { runShutdown } from "@/lib/shutdown";
import { REQUEST_TIMEOUT_MS } from "./body";

/** How long the server keeps an idle kept-alive connection open (createAppServer). */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/** How long a stopping server lets the requests in flight finish before it closes their connections. */
export const SHUTDOWN_GRACE_MS = 10_000;

/** How often a stopping server closes the kept-alive connections whose last request has ended (and new streams). */
const IDLE_SWEEP_MS = 50;

type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/**
 * What the server says once it is up: the address people open (APP_URL, the origin the cookies,
 * the README and the e-mails' links use; not the interface it listens on, whose cookies would
 * not match), and where e-mail goes while the outbox holds it.
 */
export function readyLines(o: { appUrl: string; host: string; port: number; dev: boolean; outbox: boolean }): string[] {
  const origin = new URL(o.appUrl).origin;
  const lines = [`Two of Us is running at ${origin} (listening on ${o.host}:${o.port}, ${o.dev ? "development" : "production"})`];
  if (o.outbox) lines.push(`E-mails: ${origin}/dev/outbox`);
  return lines;
}

/**
 * The host name Next is told it serves on (server.ts). Next keeps a middleware rewrite (an invited
 * partner's /register) in process only when the rewrite's origin is the one it serves on, and the
 * middleware's URLs name every loopback address "localhost": told 127.0.0.1, it would send each
 * rewrite back to itself over HTTP, where the request arrives from loopback rather than its client.
 */
export const nextHostname = (host: string): string => (host === "localhost" || isLoopback(host) ? "localhost" : host);

/**
 * The app's own HTTP server in front of Next's request handler (server.ts). Before Next sees a
 * request it replaces X-Forwarded-For with the one address `clientAddress` reads: the socket's
 * peer, or the entry the trusted proxies vouch for, so nothing a client writes decides it.
 */
export function createAppServer(handle: Handler, options: { trustedProxyHops: number; strictTransportSecurity: string | null }): Server {
  // Node checks its timeouts every 30 s by default: a slow request would be held up to 30 s past them.
  const server = createServer({ connectionsCheckingInterval: 2_000 }, (req, res) => {
    // A stopping server still answers what arrives on a kept-alive connection, then closes it.
    if (!server.listening) res.setHeader("Connection", "close");
    // Set before Next starts answering; API routes get no headers from the route guard.
    if (options.strictTransportSecurity) res.setHeader("Strict-Transport-Security", options.strictTransportSecurity);
    const forwardedFor = [req.headers["x-forwarded-for"] ?? []].flat().join(",");
    req.headers["x-forwarded-for"] = trustedClientAddress(forwardedFor, req.socket.remoteAddress, options.trustedProxyHops);
    if (req.method === "POST" && refusePost(req, res)) return;
    handle(req, res).catch((error: unknown) => {
      console.error("[server] request failed", error);
      if (!res.headersSent) res.statusCode = 500;
      res.end();
    });
  });
  // Node's own bound on a whole request (300 s by default): a little past the body read deadline
  // API routes answer 408 at, for the requests that never reach one (pages, server actions).
  server.requestTimeout = REQUEST_TIMEOUT_MS + 5_000;
  server.headersTimeout = REQUEST_TIMEOUT_MS;
  // Whoever closes an idle kept-alive connection first races the other side's next request on it:
  // were it the server, a request sent as it closes is lost as ECONNRESET, or a 502 from a proxy.
  // Node's default (5 s) is shorter than most clients keep one; 65 s outlasts a load balancer's
  // usual 60 s and fetch (which follows the `Keep-Alive: timeout` hint), and leaves the race to
  // clients idle over a minute (browsers retry such a request; Playwright's request context not).
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  return server;
}

/**
 * A POST the route guard would refuse, refused here too: the guard does not see every one (Next's
 * route conditions ignore an empty Origin or Next-Action, lib/csp/static-pages guardedWhen), and
 * Next answers such a server action with 500. Answers whether it refused.
 */
function refusePost(req: IncomingMessage, res: ServerResponse): boolean {
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) if (value !== undefined) headers.set(key, [value].flat().join(", "));
  const refusal = earlyRefusal("POST", (req.url ?? "/").split("?", 1)[0]!, headers);
  if (!refusal) return false;
  for (const { key, value } of staticSecurityHeaders()) res.setHeader(key, value);
  res.writeHead(refusal.status, { "Content-Type": "application/json" }).end(JSON.stringify(refusalBody(refusal)));
  return true;
}

/**
 * Stops the server as Ctrl-C or a platform's SIGTERM asks (server.ts), losing nothing: it takes no
 * new connection, ends the live streams (their clients resume from their last id once a server
 * answers), lets the requests in flight finish for up to `graceMs` and then closes their
 * connections, and only then stops the work beside requests and closes the database
 * (lib/shutdown.ts), which no request still needs.
 */
export async function closeGracefully(server: Server, graceMs = SHUTDOWN_GRACE_MS): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  await runShutdown("streams");
  // A kept-alive connection turns idle as its last request ends: close each then, not at the grace's
  // end; and a stream opened on one meanwhile ends as the others did.
  const sweep = setInterval(() => {
    server.closeIdleConnections();
    void runShutdown("streams");
  }, IDLE_SWEEP_MS);
  let cutOff: ReturnType<typeof setTimeout> | undefined;
  // At the grace's end the rest is cut and the stop goes on: a connection upgraded to a WebSocket
  // (the development server's reload channel) is no HTTP connection Node can close, and would
  // otherwise hold `close` until the process is killed, the database left open.
  const graceEnds = new Promise<void>((resolve) => {
    cutOff = setTimeout(() => {
      server.closeAllConnections();
      resolve();
    }, graceMs);
  });
  try {
    await Promise.race([closed, graceEnds]);
  } finally {
    clearInterval(sweep);
    clearTimeout(cutOff);
  }
  await runShutdown("work");
  await runShutdown("database");
}

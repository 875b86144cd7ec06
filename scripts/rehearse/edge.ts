/**
 * The rehearsal's edge: a small local proxy that behaves like the platform's (Vercel's) in the
 * ways that break an app built for one server: requests go round-robin to the instances with no
 * stickiness, a body over the limit is refused with 413 before any instance sees it, a response
 * still running at the function's maximum duration is cut (a stream included), and the client's
 * address is appended to X-Forwarded-For (one hop: the instances run with TRUSTED_PROXY_HOPS=1).
 * Paths under a route's prefix go to that route's upstream instead (the bucket's public URL).
 */
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type EdgeOptions = {
  /** On loopback; 0: any free port. */
  port: number;
  /** The instances' origins, e.g. http://127.0.0.1:3622. */
  instances: readonly string[];
  /** Larger request bodies are refused with 413 (Vercel: 4.5 MB). */
  maxBodyBytes: number;
  /** A response not finished this long after its request arrived is cut (Vercel: the function's maxDuration). */
  maxDurationMs: number;
  /** Paths starting with `prefix` go to `upstream` + the rest of the path, e.g. the bucket's public URL. */
  routes?: readonly { prefix: string; upstream: string }[];
};

export type EdgeStats = { byInstance: number[]; refused413: number; cut: number };
export type Edge = { port: number; stats: EdgeStats; close(): Promise<void> };

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

function refuse(res: ServerResponse, status: number, text: string): void {
  if (res.headersSent) return void res.destroy();
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8", connection: "close" });
  res.end(text);
}

export function startEdge(options: EdgeOptions): Promise<Edge> {
  const stats: EdgeStats = { byInstance: options.instances.map(() => 0), refused413: 0, cut: 0 };
  let next = 0;

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const tooLarge = () => {
      stats.refused413++;
      refuse(res, 413, "Request Entity Too Large");
    };
    if (Number(req.headers["content-length"] ?? 0) > options.maxBodyBytes) {
      tooLarge();
      req.resume();
      return;
    }
    const route = options.routes?.find((r) => req.url?.startsWith(r.prefix));
    let target: URL;
    if (route) target = new URL(route.upstream + req.url!.slice(route.prefix.length));
    else {
      const index = next++ % options.instances.length;
      stats.byInstance[index]!++;
      target = new URL(req.url!, options.instances[index]);
    }
    const forwardedFor = [req.headers["x-forwarded-for"], req.socket.remoteAddress].flat().filter(Boolean).join(", ");
    const upstream = http.request(
      target,
      { method: req.method, headers: { ...req.headers, "x-forwarded-for": forwardedFor }, agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    // The function's maximum duration, from the request's arrival: whatever is still being sent then is cut.
    const deadline = setTimeout(() => {
      if (res.writableEnded) return;
      stats.cut++;
      upstream.destroy();
      if (res.headersSent) res.destroy();
      else refuse(res, 504, "Gateway Timeout");
    }, options.maxDurationMs);
    res.on("close", () => clearTimeout(deadline));
    upstream.on("error", () => refuse(res, 502, "Bad Gateway"));
    // Bodies without a length are counted as they arrive.
    let received = 0;
    req.on("data", (chunk: Buffer) => {
      if (received > options.maxBodyBytes) return; // refused already
      received += chunk.byteLength;
      if (received > options.maxBodyBytes) {
        upstream.destroy();
        req.unpipe(upstream);
        req.resume();
        tooLarge();
      }
    });
    req.pipe(upstream);
  };

  const server = http.createServer(handle);
  server.keepAliveTimeout = 5_000;
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, "127.0.0.1", () =>
      resolve({
        port: (server.address() as AddressInfo).port,
        stats,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      }),
    );
  });
}

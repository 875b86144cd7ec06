import { request, Agent, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { closeGracefully, createAppServer } from "@/lib/http/app-server";
import { onShutdown, runShutdown } from "@/lib/shutdown";

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

async function serve(handler: Handler) {
  const server = createAppServer(async (req, res) => handler(req, res), { trustedProxyHops: 0, strictTransportSecurity: null });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

/** A GET's status, body and Connection header, or the error that ended it (a refused connection, a cut one). */
function get(
  port: number,
  path: string,
  agent?: Agent,
): Promise<{ status: number; body: string; connection?: string } | { error: string }> {
  return new Promise((resolve) => {
    const req = request({ host: "127.0.0.1", port, path, agent }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode!, body, connection: res.headers.connection }));
      res.on("error", (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    });
    req.on("error", (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    req.end();
  });
}

/** A live stream as the app's: headers and a first event, then open until the server's stop ends it (`onEnd` first). */
function openStream(res: ServerResponse, onEnd = () => {}) {
  res.writeHead(200, { "Content-Type": "text/event-stream" });
  res.write("data: hello\n\n");
  const leave = onShutdown("streams", () => {
    onEnd();
    res.end();
  });
  res.on("close", leave);
}

/**
 * A server whose `/first` answers only once released, `/next` at once, anything else a stream; and
 * an agent of one kept-alive connection, on which later requests wait for `/first`.
 */
async function oneConnectionServer() {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  // The stop must begin with /first on the server: a fixed wait lost that race on a loaded machine.
  let arrive!: () => void;
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  const { server, port } = await serve((req, res) => {
    if (req.url === "/first") {
      arrive();
      return void held.then(() => res.end("first"));
    }
    if (req.url === "/next") return void res.end("next");
    openStream(res);
  });
  return { server, port, release, arrived, agent: new Agent({ keepAlive: true, maxSockets: 1 }) };
}

// Hooks left by a test would run in the next one's stop.
afterEach(async () => {
  for (const phase of ["streams", "work", "database"] as const) await runShutdown(phase);
});

describe("stopping the app's own server (server.ts on SIGTERM or Ctrl-C)", () => {
  it("lets a request in flight finish, ends the open streams, refuses new connections, then stops the work and closes the database", async () => {
    const steps: string[] = [];
    const { server, port } = await serve((req, res) => {
      if (req.url === "/slow") {
        setTimeout(() => {
          res.end("done");
          steps.push("slow request answered");
        }, 300);
        return;
      }
      openStream(res, () => steps.push("stream ended"));
    });
    onShutdown("work", () => void steps.push("work stopped"));
    onShutdown("database", () => void steps.push("database closed"));

    const stream = get(port, "/stream");
    const slow = get(port, "/slow");
    await wait(100);
    const stopped = closeGracefully(server, 120_000);
    await wait(20);
    expect(await get(port, "/late", new Agent())).toEqual({ error: "ECONNREFUSED" });
    expect(await stream).toMatchObject({ status: 200, body: "data: hello\n\n" });
    expect(await slow).toMatchObject({ status: 200, body: "done" });
    await stopped;
    expect(steps).toEqual(["stream ended", "slow request answered", "work stopped", "database closed"]);
  });

  it("closes a kept-alive connection as soon as its last request has ended, not at the grace's end", async () => {
    const { server, port } = await serve((_req, res) => void setTimeout(() => res.end("ok"), 200));
    const agent = new Agent({ keepAlive: true });
    const answered = get(port, "/", agent);
    await wait(50);
    // The grace outlasts the test's own time limit: only closing the idle connection lets the stop end.
    const stopped = closeGracefully(server, 120_000);
    expect(await answered).toMatchObject({ status: 200, body: "ok" });
    await stopped;
    agent.destroy();
  });

  it("answers a request that arrives on a kept-alive connection while stopping, then closes the connection", async () => {
    const { server, port, release, arrived, agent } = await oneConnectionServer();
    // One connection: the second request waits for it, and arrives after the stop began.
    const first = get(port, "/first", agent);
    const next = get(port, "/next", agent);
    await arrived;
    const stopped = closeGracefully(server, 120_000);
    release();
    // The one that began before the stop keeps its connection; the one after says it closes it.
    expect(await first).toEqual({ status: 200, body: "first", connection: "keep-alive" });
    expect(await next).toEqual({ status: 200, body: "next", connection: "close" });
    await stopped;
    agent.destroy();
  });

  it("ends a stream opened on a kept-alive connection while stopping", async () => {
    const { server, port, release, arrived, agent } = await oneConnectionServer();
    const first = get(port, "/first", agent);
    const stream = get(port, "/stream", agent);
    await arrived;
    const stopped = closeGracefully(server, 120_000);
    release();
    expect(await first).toMatchObject({ status: 200, body: "first" });
    expect(await stream).toMatchObject({ status: 200, body: "data: hello\n\n" });
    await stopped;
    agent.destroy();
  });

  it("cuts off a request that outlasts the grace, and still closes the database", async () => {
    const steps: string[] = [];
    const { server, port } = await serve(() => {}); // never answers
    onShutdown("database", () => void steps.push("database closed"));
    const hanging = get(port, "/");
    await wait(50);
    await closeGracefully(server, 200);
    expect(await hanging).toEqual({ error: "ECONNRESET" });
    expect(steps).toEqual(["database closed"]);
  });

  it("goes on at the grace's end past a connection upgraded to a WebSocket (the development server's reload channel)", async () => {
    const steps: string[] = [];
    const { server, port } = await serve(() => {});
    // As Next's development server does: it takes the upgraded socket and keeps it open.
    server.on("upgrade", (_req, socket: Duplex) =>
      socket.write("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n"),
    );
    onShutdown("database", () => void steps.push("database closed"));
    const upgraded = new Promise<Duplex>((resolve) => {
      const req = request({
        host: "127.0.0.1",
        port,
        path: "/_next/webpack-hmr",
        headers: { Connection: "Upgrade", Upgrade: "websocket" },
      });
      req.on("upgrade", (_res, socket) => resolve(socket));
      req.end();
    });
    const socket = await upgraded;
    await closeGracefully(server, 200);
    expect(steps).toEqual(["database closed"]);
    socket.destroy();
  });

  it("runs every step of a phase when one of them fails", async () => {
    const closed: string[] = [];
    onShutdown("database", () => Promise.reject(new Error("already gone")));
    onShutdown("database", () => void closed.push("the other"));
    await runShutdown("database");
    expect(closed).toEqual(["the other"]);
  });
});

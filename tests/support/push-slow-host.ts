/**
 * A push endpoint's host that never finishes answering, for the sender's deadline: a TLS server on
 * 127.0.0.1 that takes the push, then sends its answer a byte every `everyMs`, for ever. `body`:
 * the status line and headers at once (a 201 with a long body), then the body a byte at a time;
 * `head`: the status line, then a header a byte at a time, so the answer's head never ends and no
 * status reaches the sender. A socket's idle timeout never fires on either.
 */
import { Agent } from "node:https";
import type { AddressInfo, Socket } from "node:net";
import { createServer } from "node:tls";
import { selfSignedCertificate } from "./push-stand-in";

const OPENINGS = { body: "HTTP/1.1 201 Created\r\nContent-Length: 100000000\r\n\r\n", head: "HTTP/1.1 201 Created\r\nX-Wait: " } as const;
const TRICKLED = { body: "x", head: "w" } as const;

export async function startSlowPushHost(mode: keyof typeof OPENINGS, everyMs = 100) {
  const { key, cert } = selfSignedCertificate();
  const open = new Set<Socket>();
  const server = createServer({ key, cert }, (socket) => {
    open.add(socket);
    let answering: NodeJS.Timeout | undefined;
    // The answer starts once the push has come in (its headers and encrypted body, in one write or a few).
    socket.once("data", () => {
      socket.write(OPENINGS[mode]);
      answering = setInterval(() => socket.write(TRICKLED[mode]), everyMs);
    });
    socket.on("error", () => {});
    socket.on("close", () => {
      clearInterval(answering);
      open.delete(socket);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const agent = new Agent({ ca: cert, keepAlive: true });
  return {
    origin: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** An HTTPS agent trusting this host's certificate (and nothing else). */
    agent,
    /** Connections the sender has not hung up yet. */
    openConnections: () => open.size,
    async close() {
      agent.destroy();
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

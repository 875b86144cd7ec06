import { createSocket, type Socket } from "node:dgram";
import { afterEach, describe, expect, it } from "vitest";
import { RESOLVE_TIMEOUT_MS, resolveHost } from "@/lib/notifications/push/resolve";

/**
 * A push host's name resolved through c-ares against a nameserver of the test's own on this
 * machine: one that answers A queries with one address (and AAAA with none), and one that never
 * answers, as a subscriber's own nameserver may.
 */

const sockets: Socket[] = [];

async function nameserver(answer: boolean): Promise<string> {
  const socket = createSocket("udp4");
  sockets.push(socket);
  socket.on("message", (query, from) => {
    if (!answer) return;
    // The question ends after its name (length-prefixed labels, then 0) and 4 bytes of type and class.
    let end = 12;
    while (query[end]! !== 0) end += query[end]! + 1;
    const question = query.subarray(12, end + 5);
    const isA = query.readUInt16BE(end + 1) === 1;
    const header = Buffer.alloc(12);
    query.copy(header, 0, 0, 2);
    header.writeUInt16BE(0x8180, 2); // a response, recursion available, no error
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(isA ? 1 : 0, 6);
    // The answer names the question (a pointer to offset 12): A, IN, a minute, 4 bytes.
    const record = Buffer.from([0xc0, 0x0c, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, 93, 184, 216, 34]);
    socket.send(Buffer.concat(isA ? [header, question, record] : [header, question]), from.port, from.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  return `127.0.0.1:${socket.address().port}`;
}

afterEach(() => {
  for (const socket of sockets.splice(0)) socket.close();
});

describe("resolveHost", () => {
  it("answers the host's addresses with their family", async () => {
    expect(await resolveHost("push.example.com", [await nameserver(true)])).toEqual([{ address: "93.184.216.34", family: 4 }]);
  });

  it(
    "answers none when the nameservers never answer, within its bound for them all (each alone would wait as long)",
    async () => {
      const silent = [await nameserver(false), await nameserver(false), await nameserver(false)];
      // Tried in turn, three would take three times RESOLVE_TIMEOUT_MS, past this test's own limit.
      expect(await resolveHost("push.example.com", silent)).toEqual([]);
    },
    3 * RESOLVE_TIMEOUT_MS - 500,
  );
});

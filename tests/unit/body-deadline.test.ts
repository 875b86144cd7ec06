import { describe, expect, it } from "vitest";
import { MAX_REQUEST_BYTES, readBoundedBody } from "@/lib/http/body";

/** A body that sends one chunk, then stalls: a slow client. */
function stalling(): ReadableStream<Uint8Array> {
  let sent = false;
  return new ReadableStream({
    pull(controller) {
      if (sent) return new Promise<void>(() => {});
      sent = true;
      controller.enqueue(new Uint8Array([0x7b]));
    },
  });
}

const post = (body: ReadableStream<Uint8Array>) =>
  new Request("http://localhost/api/x", { method: "POST", body, duplex: "half" } as RequestInit);

describe("readBoundedBody's read deadline", () => {
  it("answers 408 REQUEST_TIMEOUT when the body has not arrived in time", async () => {
    const started = Date.now();
    await expect(readBoundedBody(post(stalling()), 1024, 100)).rejects.toMatchObject({ code: "REQUEST_TIMEOUT", status: 408 });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it("answers in time over a body read from an async iterator (how Next hands over a Node request)", async () => {
    async function* stalled() {
      yield new Uint8Array([0x7b]);
      await new Promise(() => {});
    }
    const request = new Request("http://localhost/api/x", { method: "POST", body: stalled(), duplex: "half" } as unknown as RequestInit);
    const started = Date.now();
    await expect(readBoundedBody(request, 1024, 100)).rejects.toMatchObject({ code: "REQUEST_TIMEOUT" });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it("reads a body that arrives in time", async () => {
    const body = await readBoundedBody(new Request("http://localhost/api/x", { method: "POST", body: "{}" }), 1024, 1000);
    expect(new TextDecoder().decode(body)).toBe("{}");
  });
});

describe("readBoundedBody's ceiling", () => {
  it("never reads past the platform's 4.5 MB, whatever bound a caller asks for", async () => {
    const body = (bytes: number) => new Request("http://localhost/api/x", { method: "POST", body: new Uint8Array(bytes) });
    await expect(readBoundedBody(body(MAX_REQUEST_BYTES + 1), 10 * MAX_REQUEST_BYTES)).rejects.toMatchObject({
      code: "PAYLOAD_TOO_LARGE",
      message: "The request body must be 4.5 MB or smaller.",
    });
    expect((await readBoundedBody(body(MAX_REQUEST_BYTES), 10 * MAX_REQUEST_BYTES)).byteLength).toBe(MAX_REQUEST_BYTES);
  });
});

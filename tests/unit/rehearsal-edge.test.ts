import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBucket, type Bucket } from "../../scripts/rehearse/bucket";
import { startEdge, type Edge } from "../../scripts/rehearse/edge";

/** Two stand-in instances: each answers who it is and what X-Forwarded-For it got; /stream never ends; /echo counts the body. */
function instance(name: string): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    if (req.url === "/stream") {
      res.writeHead(200, { "content-type": "text/event-stream" });
      const tick = setInterval(() => res.write(": heartbeat\n\n"), 50);
      res.on("close", () => clearInterval(tick));
      return;
    }
    let bytes = 0;
    req.on("data", (chunk: Buffer) => (bytes += chunk.byteLength));
    req.on("end", () => res.end(JSON.stringify({ name, forwardedFor: req.headers["x-forwarded-for"], bytes })));
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

const origin = (server: http.Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const MAX_BODY = 100_000;
const MAX_DURATION_MS = 600;

let instances: http.Server[];
let edge: Edge;
let bucket: Bucket;
let base: string;

beforeAll(async () => {
  instances = await Promise.all([instance("a"), instance("b")]);
  bucket = await startBucket(0, "photos");
  edge = await startEdge({ port: 0, instances: instances.map(origin), maxBodyBytes: MAX_BODY, maxDurationMs: MAX_DURATION_MS });
  base = `http://127.0.0.1:${edge.port}`;
});

afterAll(async () => {
  await edge.close();
  await bucket.close();
  for (const server of instances) {
    server.closeAllConnections();
    server.close();
  }
});

describe("S3 storage against the rehearsal's buckets", () => {
  it("keeps private keys in the private bucket, unreadable without a signature, read back by the app", async () => {
    const { createS3Storage } = await import("@/lib/storage/s3");
    const storage = createS3Storage({
      bucket: "photos",
      privateBucket: "photos-private",
      region: "us-east-1",
      endpoint: `http://127.0.0.1:${bucket.port}`,
      accessKeyId: "id",
      secretAccessKey: "secret",
      publicUrl: "https://img.example.com",
    });
    const privateKey = "message-photo/0123456789abcdef0123456789abcdef.jpg";
    const publicKey = "avatar/0123456789abcdef0123456789abcdef.jpg";
    const bytes = Buffer.from([0xff, 0xd8, 0xff, 0xd9]);
    expect(await storage.put(privateKey, bytes, "image/jpeg")).toEqual({ url: null });
    expect(await storage.put(publicKey, bytes, "image/jpeg")).toEqual({ url: `https://img.example.com/${publicKey}` });
    expect([...bucket.privateObjects.keys()]).toEqual([privateKey]);
    expect(bucket.objects.has(privateKey)).toBe(false);
    expect((await fetch(`http://127.0.0.1:${bucket.port}/photos-private/${privateKey}`)).status).toBe(403);
    expect((await storage.read(privateKey))?.body).toEqual(bytes);
    await storage.delete(privateKey);
    expect(await storage.read(privateKey)).toBeNull();
  });
});

describe("the rehearsal's edge (scripts/rehearse/edge.ts)", () => {
  it("sends consecutive requests to alternate instances, keep-alive or not, with no stickiness", async () => {
    const names = [];
    for (let i = 0; i < 4; i++) names.push(((await (await fetch(`${base}/x`)).json()) as { name: string }).name);
    expect(names).toEqual(["a", "b", "a", "b"]);
  });

  it("appends the client's address to X-Forwarded-For: one hop the instances trust", async () => {
    const answer = (await (await fetch(`${base}/x`, { headers: { "x-forwarded-for": "6.6.6.6" } })).json()) as { forwardedFor: string };
    expect(answer.forwardedFor).toMatch(/^6\.6\.6\.6, (::ffff:)?127\.0\.0\.1$/);
  });

  it("refuses a body over the limit with 413 before an instance reads it, declared or streamed", async () => {
    const before = edge.stats.refused413;
    expect((await fetch(`${base}/echo`, { method: "POST", body: new Uint8Array(MAX_BODY + 1) })).status).toBe(413);
    const streamed = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 4; i++) controller.enqueue(new Uint8Array(MAX_BODY / 2));
        controller.close();
      },
    });
    const chunked = await fetch(`${base}/echo`, { method: "POST", body: streamed, duplex: "half" } as RequestInit).catch(() => null);
    expect(chunked === null || chunked.status === 413).toBe(true);
    expect(edge.stats.refused413).toBe(before + 2);
    const atLimit = (await (await fetch(`${base}/echo`, { method: "POST", body: new Uint8Array(MAX_BODY) })).json()) as { bytes: number };
    expect(atLimit.bytes).toBe(MAX_BODY);
  });

  it("cuts a streaming response at the maximum duration, as the platform ends a function", async () => {
    const started = Date.now();
    const response = await fetch(`${base}/stream`);
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    let received = 0;
    const ended = await (async () => {
      for (;;) {
        try {
          const { done, value } = await reader.read();
          if (done) return "done";
          received += value.byteLength;
        } catch {
          return "cut";
        }
      }
    })();
    const lasted = Date.now() - started;
    expect(["done", "cut"]).toContain(ended);
    expect(received).toBeGreaterThan(0);
    expect(lasted).toBeGreaterThanOrEqual(MAX_DURATION_MS - 50);
    expect(lasted).toBeLessThan(MAX_DURATION_MS + 2_000);
    expect(edge.stats.cut).toBeGreaterThanOrEqual(1);
  });
});

describe("the rehearsal's bucket (scripts/rehearse/bucket.ts)", () => {
  it("stores, serves and deletes objects by path-style key, aws-chunked bodies decoded", async () => {
    const url = `http://127.0.0.1:${bucket.port}/photos/couple-photo/abc.jpg`;
    expect((await fetch(url, { method: "PUT", body: "plain", headers: { "content-type": "image/jpeg" } })).status).toBe(200);
    expect(await (await fetch(url)).text()).toBe("plain");
    const chunked = "5;chunk-signature=x\r\nhello\r\n6\r\n world\r\n0\r\nx-amz-checksum-crc32:abc\r\n\r\n";
    await fetch(url, {
      method: "PUT",
      body: chunked,
      headers: { "content-encoding": "aws-chunked", "x-amz-decoded-content-length": "11" },
    });
    expect(await (await fetch(url)).text()).toBe("hello world");
    expect((await fetch(url, { method: "DELETE" })).status).toBe(204);
    expect((await fetch(url)).status).toBe(404);
  });
});

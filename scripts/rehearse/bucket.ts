/**
 * The rehearsal's object storage: an S3-compatible bucket in memory, enough for what the app's
 * S3 storage does (PutObject, DeleteObject with path-style addressing) and for browsers reading
 * the objects (GET), so the instances keep nothing on their own disk. Signatures are not checked:
 * it listens on loopback for this run only.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

type StoredObject = { body: Buffer; type: string };

/**
 * An aws-chunked body (`<hex size>[;extensions]\r\n<data>\r\n` ... `0\r\n<trailers>\r\n`), as the
 * AWS SDK sends when it streams a payload with a trailing checksum.
 */
function decodeAwsChunked(raw: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = raw.indexOf("\r\n", at);
    if (lineEnd < 0) break;
    const size = parseInt(raw.subarray(at, lineEnd).toString("latin1").split(";")[0]!, 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(raw.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

export type Bucket = { port: number; objects: Map<string, StoredObject>; close(): Promise<void> };

/** Listens on loopback at `port` (0: any free port). */
export function startBucket(port: number, name: string): Promise<Bucket> {
  const objects = new Map<string, StoredObject>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://bucket");
    const prefix = `/${name}/`;
    if (!url.pathname.startsWith(prefix)) return void res.writeHead(404).end();
    const key = decodeURIComponent(url.pathname.slice(prefix.length));
    if (req.method === "PUT") {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        const raw = Buffer.concat(chunks);
        const chunked = /aws-chunked/.test(String(req.headers["content-encoding"] ?? "")) || "x-amz-decoded-content-length" in req.headers;
        objects.set(key, {
          body: chunked ? decodeAwsChunked(raw) : raw,
          type: String(req.headers["content-type"] ?? "application/octet-stream"),
        });
        res.writeHead(200, { etag: `"${key.length}-${raw.byteLength}"` }).end();
      });
      return;
    }
    if (req.method === "DELETE") {
      objects.delete(key);
      return void res.writeHead(204).end();
    }
    const found = objects.get(key);
    if ((req.method === "GET" || req.method === "HEAD") && found) {
      res.writeHead(200, {
        "content-type": found.type,
        "content-length": found.body.byteLength,
        "cache-control": "public, max-age=31536000, immutable",
      });
      return void res.end(req.method === "GET" ? found.body : undefined);
    }
    res.writeHead(404).end();
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () =>
      resolve({
        port: (server.address() as AddressInfo).port,
        objects,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      }),
    );
  });
}

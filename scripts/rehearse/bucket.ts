/**
 * The rehearsal's object storage: S3-compatible buckets in memory, enough for what the app's S3
 * storage does (PutObject, GetObject, DeleteObject with path-style addressing) and for browsers
 * reading the public bucket's objects (GET), so the instances keep nothing on their own disk. The
 * private bucket answers only signed requests (an Authorization header; the signature itself is
 * not checked: it listens on loopback for this run only), as a bucket without public access does.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

/** An object as stored: its bytes, and the type and caching its upload asked for (S3 keeps both as metadata). */
type StoredObject = { body: Buffer; type: string; cacheControl: string | undefined };

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

/** Objects by bucket name, then key. */
export type Bucket = {
  port: number;
  objects: Map<string, StoredObject>;
  privateObjects: Map<string, StoredObject>;
  close(): Promise<void>;
};

/** Listens on loopback at `port` (0: any free port), with a public bucket `name` and a private one `privateName`. */
export function startBucket(port: number, name: string, privateName = `${name}-private`): Promise<Bucket> {
  const objects = new Map<string, StoredObject>();
  const privateObjects = new Map<string, StoredObject>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://bucket");
    const [, bucketName = "", ...rest] = url.pathname.split("/");
    const secret = bucketName === privateName;
    if ((bucketName !== name && !secret) || rest.length === 0) return void res.writeHead(404).end();
    if (secret && !req.headers.authorization) return void res.writeHead(403).end();
    const store = secret ? privateObjects : objects;
    const key = decodeURIComponent(rest.join("/"));
    if (req.method === "PUT") {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        const raw = Buffer.concat(chunks);
        const chunked = /aws-chunked/.test(String(req.headers["content-encoding"] ?? "")) || "x-amz-decoded-content-length" in req.headers;
        store.set(key, {
          body: chunked ? decodeAwsChunked(raw) : raw,
          type: String(req.headers["content-type"] ?? "application/octet-stream"),
          cacheControl: req.headers["cache-control"],
        });
        res.writeHead(200, { etag: `"${key.length}-${raw.byteLength}"` }).end();
      });
      return;
    }
    if (req.method === "DELETE") {
      store.delete(key);
      return void res.writeHead(204).end();
    }
    const found = store.get(key);
    if ((req.method === "GET" || req.method === "HEAD") && found) {
      res.writeHead(200, {
        "content-type": found.type,
        "content-length": found.body.byteLength,
        ...(found.cacheControl ? { "cache-control": found.cacheControl } : {}),
      });
      return void res.end(req.method === "GET" ? found.body : undefined);
    }
    // As S3 answers a missing key (the SDK reads the code from the body).
    res.writeHead(404, { "content-type": "application/xml" }).end("<Error><Code>NoSuchKey</Code><Message>Not found</Message></Error>");
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () =>
      resolve({
        port: (server.address() as AddressInfo).port,
        objects,
        privateObjects,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      }),
    );
  });
}

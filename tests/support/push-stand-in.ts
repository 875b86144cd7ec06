/**
 * A local push service stand-in (RFC 8030) for the tests: an HTTPS server on this machine that,
 * for every push, checks the VAPID token (RFC 8292: signature by the key it names, audience,
 * expiry, subject), decrypts the payload with the subscription's private key (RFC 8291, with
 * `http_ece`, the library web-push itself uses), and records TTL, Urgency and Topic. Each
 * subscription's answers can be scripted (404, 410, 429, 503...). It imports nothing of the app,
 * so the rehearsal's journeys (another process than the sender's) run it too; the integration
 * tests' sender transport is added in ./push-service.ts.
 */
import { createECDH, createPublicKey, randomBytes, verify, type ECDH } from "node:crypto";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, Agent } from "node:https";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import ece from "http_ece";

export type ReceivedPush = {
  device: string;
  ttl: number;
  urgency: string | null;
  topic: string | null;
  payload: { title: string; body: string; url: string; tag: string; conversationId: string | null; unread: number };
  claims: { aud: string; exp: number; sub: string };
};

type Device = { ecdh: ECDH; auth: string; answers: number[] };

const b64url = (buffer: Buffer) => buffer.toString("base64url");

export type Certificate = { key: string; cert: string };

/**
 * A throwaway certificate for 127.0.0.1 (openssl), trusted only where it is handed: the transport
 * the integration tests give the sender, or NODE_EXTRA_CA_CERTS of the rehearsal's instances.
 */
export function selfSignedCertificate(): Certificate {
  const dir = mkdtempSync(path.join(os.tmpdir(), "push-stand-in-"));
  try {
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
        "-days",
        "1",
        "-subj",
        "/CN=127.0.0.1",
        "-addext",
        "subjectAltName=IP:127.0.0.1",
        "-keyout",
        path.join(dir, "key.pem"),
        "-out",
        path.join(dir, "cert.pem"),
      ],
      { stdio: "ignore" },
    );
    return { key: readFileSync(path.join(dir, "key.pem"), "utf8"), cert: readFileSync(path.join(dir, "cert.pem"), "utf8") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The VAPID token's claims, once its signature checks out with the public key the request names. */
function checkVapid(authorization: string | undefined, expectedKey: string): ReceivedPush["claims"] {
  const match = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(authorization ?? "");
  if (!match) throw new Error(`not a VAPID authorization: ${authorization}`);
  const [, token, key] = match as unknown as [string, string, string];
  if (key !== expectedKey) throw new Error("signed with another key");
  const raw = Buffer.from(key, "base64url");
  const publicKey = createPublicKey({
    key: { kty: "EC", crv: "P-256", x: b64url(raw.subarray(1, 33)), y: b64url(raw.subarray(33, 65)) },
    format: "jwk",
  });
  const [header, claims, signature] = token.split(".") as [string, string, string];
  const valid = verify(
    "sha256",
    Buffer.from(`${header}.${claims}`),
    { key: publicKey, dsaEncoding: "ieee-p1363" },
    Buffer.from(signature, "base64url"),
  );
  if (!valid) throw new Error("bad VAPID signature");
  if (JSON.parse(Buffer.from(header, "base64url").toString()).alg !== "ES256") throw new Error("not ES256");
  return JSON.parse(Buffer.from(claims, "base64url").toString());
}

/** Starts the stand-in on a free port of 127.0.0.1 (on `port` when given), serving with `certificate`. */
export async function startPushStandIn(vapidPublicKey: string, certificate: Certificate = selfSignedCertificate(), port = 0) {
  const { key, cert } = certificate;
  const devices = new Map<string, Device>();
  const received: ReceivedPush[] = [];
  const rejected: string[] = [];
  const server = createServer({ key, cert }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const id = request.url!.replace(/^\/push\//, "");
      const device = devices.get(id);
      try {
        if (!device || request.method !== "POST") throw new Error(`unknown device ${id}`);
        const claims = checkVapid(request.headers.authorization, vapidPublicKey);
        if (request.headers["content-encoding"] !== "aes128gcm") throw new Error("not aes128gcm");
        const plain = ece.decrypt(Buffer.concat(chunks), { version: "aes128gcm", privateKey: device.ecdh, authSecret: device.auth });
        const status = device.answers.shift() ?? 201;
        if (status < 300)
          received.push({
            device: id,
            ttl: Number(request.headers.ttl),
            urgency: (request.headers.urgency as string | undefined) ?? null,
            topic: (request.headers.topic as string | undefined) ?? null,
            payload: JSON.parse(plain.toString("utf8")),
            claims,
          });
        response.writeHead(status, status === 429 ? { "retry-after": "120" } : {}).end();
      } catch (error) {
        rejected.push(String(error));
        response.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const agent = new Agent({ ca: cert, keepAlive: true });
  return {
    origin,
    received,
    rejected,
    /** An HTTPS agent trusting this stand-in's certificate (and nothing else). */
    agent,
    /** A browser's new subscription: what PushSubscription.toJSON() would send. */
    newDevice(answers: number[] = []) {
      const id = randomBytes(12).toString("hex");
      const ecdh = createECDH("prime256v1");
      ecdh.generateKeys();
      const auth = b64url(randomBytes(16));
      devices.set(id, { ecdh, auth, answers });
      return { id, endpoint: `${origin}/push/${id}`, keys: { p256dh: b64url(ecdh.getPublicKey()), auth } };
    },
    /** Scripts a device's next answers. */
    answer(id: string, ...statuses: number[]) {
      devices.get(id)!.answers.push(...statuses);
    },
    async close() {
      agent.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

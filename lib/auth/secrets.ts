import "server-only";
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/** 256 random bits, URL-safe: for links sent by e-mail and refresh tokens. */
export const newSecretToken = (): string => randomBytes(32).toString("base64url");

/** Only this digest is stored, so a database leak does not leak usable links. */
export const hashToken = (token: string): string => createHash("sha256").update(token).digest("hex");

export function hmac(secret: string, value: string): string {
  return createHmac("sha256", secret).update(value).digest("base64url");
}

export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

import { ECDH } from "node:crypto";

/**
 * The keys a push is encrypted to (RFC 8291, done by web-push), base64url as the browser's
 * PushSubscription.toJSON() gives them: `p256dh` a P-256 public key, uncompressed (65 bytes, 0x04
 * first) and on the curve; `auth` a 16-byte secret. A subscription with other keys can never be
 * sent to: it is refused when a device subscribes, and one stored before is removed at its first
 * push (./transport.ts).
 */

const BASE64URL = /^[\w-]+=*$/;
/** Longer than any key's base64url (65 bytes: 87 characters, padded 88): not looked at further. */
const KEY_CHARS_MAX = 128;
const bytes = (value: string) =>
  value.length <= KEY_CHARS_MAX && BASE64URL.test(value) ? Buffer.from(value, "base64url") : Buffer.alloc(0);

export function p256dhUsable(value: string): boolean {
  const key = bytes(value);
  if (key.length !== 65 || key[0] !== 0x04) return false;
  try {
    // Throws for a point that is not on the curve (web-push's key agreement would).
    ECDH.convertKey(key, "prime256v1");
    return true;
  } catch {
    return false;
  }
}

export const authUsable = (value: string): boolean => bytes(value).length === 16;

import { decode, type JWTDecodeParams } from "next-auth/jwt";
import type { JWT } from "next-auth/jwt";

/**
 * Auth.js's `decode`, remembering what each token decoded to. Every call of the original derives
 * the key with HKDF and hashes it for the key id before decrypting (four trips through the crypto
 * thread pool); a signed-in client sends the same cookie or access token again and again.
 *
 * Safe: a token is immutable and encrypted with the process's secret, so the same string always
 * decodes to the same claims. Revocation is not decided here (callers check the session row on
 * every request), and an entry is used only until the token's own `exp`. Edge-safe (middleware).
 */
const MAX_ENTRIES = 5_000;
const decoded = new Map<string, JWT>();

const stillValid = (payload: JWT) => typeof payload.exp === "number" && payload.exp * 1000 > Date.now();

export async function cachedDecode(params: JWTDecodeParams): Promise<JWT | null> {
  const { token, salt } = params;
  if (!token) return null;
  // The secret is the process's own (AUTH_SECRET): the salt and the token are the whole key.
  const key = `${salt}\u0000${token}`;
  const hit = decoded.get(key);
  // Copies: Auth.js hands the claims to callbacks that build on them.
  if (hit && stillValid(hit)) return { ...hit };
  decoded.delete(key);
  const payload = await decode(params);
  if (payload && stillValid(payload)) {
    // Oldest first out: a Map iterates in insertion order.
    if (decoded.size >= MAX_ENTRIES) decoded.delete(decoded.keys().next().value!);
    decoded.set(key, { ...payload });
  }
  return payload;
}

import type { JWT } from "next-auth/jwt";
import { authSecret } from "@/lib/env";
import { cachedDecode } from "./jwt-cache";
import { sessionCookieName, type SessionClaims } from "./session-token";

/**
 * The claims of a browser session cookie's value (with the token's own `iat` and `exp`), or null
 * when it does not decode (tampered, expired, another secret) or names no session. Says nothing
 * about whether the session is still live: callers check the row. Edge-safe (the route guard).
 */
export async function decodeSessionCookie(value: string): Promise<(SessionClaims & JWT) | null> {
  // Outside the try: a missing secret is a configuration error, not a signed-out visitor.
  const secret = authSecret();
  try {
    const token = await cachedDecode({ token: value, secret, salt: sessionCookieName() });
    if (typeof token?.sub === "string" && typeof token.sid === "string") return token as SessionClaims & JWT;
  } catch {
    // an unreadable or expired cookie is no session
  }
  return null;
}

/** The browser session cookie's user and session ids, or null when it is missing or is no session. */
export async function readSessionCookie(value: string | undefined): Promise<{ userId: string; sessionId: string } | null> {
  const claims = value ? await decodeSessionCookie(value) : null;
  return claims && { userId: claims.sub, sessionId: claims.sid };
}

import "server-only";
import { authSecret } from "@/lib/env";
import { cachedDecode } from "./jwt-cache";
import { sessionCookieName } from "./session-token";

/**
 * The browser session cookie's user and session ids, or null when it is missing, unreadable or
 * expired. Says nothing about whether the session is still live: callers check the row.
 */
export async function readSessionCookie(value: string | undefined): Promise<{ userId: string; sessionId: string } | null> {
  if (!value) return null;
  try {
    const payload = await cachedDecode({ token: value, secret: authSecret(), salt: sessionCookieName() });
    if (typeof payload?.sub === "string" && typeof payload.sid === "string") return { userId: payload.sub, sessionId: payload.sid };
  } catch {
    // an unreadable or expired cookie is no session
  }
  return null;
}

import "server-only";
import type { NextRequest } from "next/server";
import type { Db } from "@/db/client";
import { readAccessToken } from "@/lib/auth/api-tokens";
import { hmac, safeEqual } from "@/lib/auth/secrets";
import { readSessionCookie } from "@/lib/auth/session-cookie";
import { sessionCookieName } from "@/lib/auth/session-token";
import { activeSessionUser, touchSession } from "@/lib/auth/sessions";
import { authSecret } from "@/lib/env";
import { AppError } from "@/lib/errors";

export type Caller = { userId: string; sessionId: string; via: "cookie" | "bearer" };

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** The CSRF token of a browser session: bound to the session id, so it dies with the session. */
export const csrfTokenFor = (sessionId: string) => hmac(authSecret(), `csrf:${sessionId}`);

/**
 * Who is calling: a bearer access token, or else the browser session cookie. Either way the
 * session row must be live. Mutating calls made with the cookie must carry X-CSRF-Token.
 */
export async function optionalCaller(db: Db, request: NextRequest): Promise<Caller | null> {
  const authorization = request.headers.get("authorization");
  let found: Caller | null = null;
  if (authorization !== null) {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization);
    if (!match) throw new AppError("UNAUTHENTICATED", "Authentication token invalid");
    found = { ...(await readAccessToken(match[1]!)), via: "bearer" };
  } else {
    const cookie = await readSessionCookie(request.cookies.get(sessionCookieName())?.value);
    if (cookie) found = { ...cookie, via: "cookie" };
  }
  if (!found) return null;
  if ((await activeSessionUser(db, found.sessionId)) !== found.userId) {
    // A stale cookie is simply no session; a bearer client is told to sign in again.
    if (found.via === "cookie") return null;
    throw new AppError("SESSION_EXPIRED", "Your session has ended. Please sign in again.");
  }
  await touchSession(db, found.sessionId);
  if (found.via === "cookie" && MUTATING.has(request.method)) {
    const sent = request.headers.get("x-csrf-token") ?? "";
    if (!safeEqual(sent, csrfTokenFor(found.sessionId))) throw new AppError("CSRF_VALIDATION_FAILED", "Invalid CSRF token");
  }
  return found;
}

export async function requireCaller(db: Db, request: NextRequest): Promise<Caller> {
  const caller = await optionalCaller(db, request);
  if (!caller) throw new AppError("UNAUTHENTICATED", "Not authenticated");
  return caller;
}

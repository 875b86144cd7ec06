import "server-only";
import type { NextRequest } from "next/server";
import type { Db } from "@/db/client";
import { readAccessToken } from "@/lib/auth/api-tokens";
import { hmac, safeEqual } from "@/lib/auth/secrets";
import { readSessionCookie } from "@/lib/auth/session-cookie";
import { sessionCookieName } from "@/lib/auth/session-token";
import { activeSessionUser, touchSession, type SessionFound, type SessionRead } from "@/lib/auth/sessions";
import { authSecret } from "@/lib/env";
import { AppError } from "@/lib/errors";

export type Caller = { userId: string; sessionId: string; via: "cookie" | "bearer" };

/** The plain liveness check: the session's user and nothing else (the session read of a route that declares none). */
export const sessionUserOnly: SessionRead<undefined> = async (db, sessionId) => {
  const userId = await activeSessionUser(db, sessionId);
  return userId === null ? null : { userId, value: undefined };
};

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** The CSRF token of a browser session: bound to the session id, so it dies with the session. */
export const csrfTokenFor = (sessionId: string) => hmac(authSecret(), `csrf:${sessionId}`);

/** Who the request says is calling (a bearer access token, or else the browser session cookie), not yet checked against the row. */
async function claimedCaller(request: NextRequest): Promise<Caller | null> {
  const authorization = request.headers.get("authorization");
  if (authorization !== null) {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization);
    if (!match) throw new AppError("UNAUTHENTICATED", "Authentication token invalid");
    return { ...(await readAccessToken(match[1]!)), via: "bearer" };
  }
  const cookie = await readSessionCookie(request.cookies.get(sessionCookieName())?.value);
  return cookie && { ...cookie, via: "cookie" };
}

/**
 * Who is calling: a bearer access token, or else the browser session cookie, whose session row
 * `read` finds live (with what it read along). Mutating calls made with the cookie must carry
 * X-CSRF-Token.
 */
export async function liveCaller<L, I, P>(
  db: Db,
  request: NextRequest,
  read: SessionRead<L, I, P>,
  input: () => Promise<I | null>,
  params: () => Promise<P | null>,
): Promise<(Omit<SessionFound<L>, "userId"> & { caller: Caller }) | null> {
  const claimed = await claimedCaller(request);
  if (!claimed) return null;
  const row = await read(db, claimed.sessionId, input, params);
  if (!row || row.userId !== claimed.userId) {
    // A stale cookie is simply no session; a bearer client is told to sign in again.
    if (claimed.via === "cookie") return null;
    throw new AppError("SESSION_EXPIRED", "Your session has ended. Please sign in again.");
  }
  await touchSession(db, claimed.sessionId);
  if (claimed.via === "cookie" && MUTATING.has(request.method)) {
    const sent = request.headers.get("x-csrf-token") ?? "";
    if (!safeEqual(sent, csrfTokenFor(claimed.sessionId))) throw new AppError("CSRF_VALIDATION_FAILED", "Invalid CSRF token");
  }
  return { caller: claimed, value: row.value, account: row.account };
}

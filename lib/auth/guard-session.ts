import { encode, type JWT } from "next-auth/jwt";
import type { NextRequest, NextResponse } from "next/server";
import { authSecret, isSecureOrigin } from "@/lib/env";
import { underSignedInLayout } from "./guard";
import { decodeSessionCookie } from "./session-cookie";
import { BROWSER_SESSION_SECONDS, sessionCookieName, type SessionClaims } from "./session-token";

/**
 * The browser session cookie as the route guard reads and renews it. Edge-safe (middleware).
 *
 * Auth.js's own middleware ran its whole session request on every page: it re-encrypted the
 * cookie and set it again with two cookies of its own (a CSRF token and a callback URL) that no
 * route of this app reads. The guard decodes the cookie (cached per token) and re-issues it,
 * with a fresh 14-day expiry, only once it is a day old and only on a page under the signed-in
 * layouts (underSignedInLayout), whose read of the session row slides a live session's expiry
 * as far (touchSession): a couple that visits within 13 days stays signed in (the cookie they
 * hold may be a day old), and a cookie is not renewed past its session's end (but for the few
 * minutes between two of touchSession's writes).
 */
export const SESSION_RENEW_AFTER_SECONDS = 24 * 60 * 60;

/** The cookie's value, whole or from Auth.js's chunks (`name.0`, `name.1`...); undefined when absent. */
export function sessionCookieValue(request: NextRequest): string | undefined {
  const name = sessionCookieName();
  const whole = request.cookies.get(name)?.value;
  if (whole !== undefined) return whole;
  const chunks = request.cookies
    .getAll()
    .filter((cookie) => cookie.name.startsWith(`${name}.`) && /^\d+$/.test(cookie.name.slice(name.length + 1)))
    .sort((a, b) => Number(a.name.slice(name.length + 1)) - Number(b.name.slice(name.length + 1)));
  return chunks.length ? chunks.map((chunk) => chunk.value).join("") : undefined;
}

/** The claims encrypted as a cookie value, valid for a browser session's length from now. */
export const encodeSessionCookie = (claims: JWT) =>
  encode({ token: claims, secret: authSecret(), salt: sessionCookieName(), maxAge: BROWSER_SESSION_SECONDS });

// The attributes Auth.js gives it; `secure` on https, where a `__Secure-` cookie without it is ignored (set or cleared).
const cookieOptions = (maxAge: number) => ({ httpOnly: true, sameSite: "lax" as const, path: "/", secure: isSecureOrigin(), maxAge });

export function setSessionCookie(response: NextResponse, value: string): NextResponse {
  response.cookies.set(sessionCookieName(), value, cookieOptions(BROWSER_SESSION_SECONDS));
  return response;
}

export type GuardSession =
  /** No cookie: nobody is signed in. */
  | { claims: null; cookie: "none" }
  /** A cookie that does not decode (tampered, expired, another secret): cleared, as Auth.js did. */
  | { claims: null; cookie: "clear" }
  /** Claims, and a renewed cookie value when the cookie is a day old and the page extends the session. */
  | { claims: SessionClaims; cookie: { renewed: string } | "keep" };

export async function readGuardSession(request: NextRequest, now = Date.now()): Promise<GuardSession> {
  const value = sessionCookieValue(request);
  if (!value) return { claims: null, cookie: "none" };
  const claims = await decodeSessionCookie(value);
  if (!claims) return { claims: null, cookie: "clear" };
  const issuedAt = typeof claims.iat === "number" ? claims.iat : 0;
  if (now / 1000 - issuedAt < SESSION_RENEW_AFTER_SECONDS || !underSignedInLayout(request.nextUrl.pathname))
    return { claims, cookie: "keep" };
  return { claims, cookie: { renewed: await encodeSessionCookie(claims) } };
}

/**
 * Puts the guard's cookie decision on its answer: the cookie cleared, or renewed whole (chunks
 * left beside a whole cookie would make Auth.js, which joins them all, read another value).
 */
export function applyGuardCookie(request: NextRequest, response: NextResponse, session: GuardSession): NextResponse {
  if (session.cookie === "none" || session.cookie === "keep") return response;
  const renewed = session.cookie === "clear" ? null : session.cookie.renewed;
  return renewed
    ? setSessionCookie(clearSessionCookie(request, response, { chunksOnly: true }), renewed)
    : clearSessionCookie(request, response);
}

/**
 * Clears the session cookie the request carries, whole and in chunks, with the attributes it was
 * set with: a `__Secure-` cookie cleared without `secure` is ignored by the browser, which would
 * keep sending it (and the guard take its holder for signed in).
 */
export function clearSessionCookie(request: NextRequest, response: NextResponse, { chunksOnly = false } = {}): NextResponse {
  const name = sessionCookieName();
  for (const cookie of request.cookies.getAll()) {
    if (cookie.name.startsWith(`${name}.`) || (cookie.name === name && !chunksOnly))
      response.cookies.set(cookie.name, "", cookieOptions(0));
  }
  return response;
}

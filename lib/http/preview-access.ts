import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { NextRequest, NextResponse } from "next/server";
import { authSecret, devOutboxEnabled, env, isPreview, isSecureOrigin } from "@/lib/env";
import { isLoopbackCaller } from "./client-address";
import { cookieValue } from "./cookies";

/**
 * Who may read the outbox (/dev/outbox, /api/dev/outbox), whose links take over accounts:
 * - everywhere, a caller on this machine while the dev outbox is enabled (lib/env devOutboxEnabled);
 * - on a preview only, a reviewer holding PREVIEW_ACCESS_TOKEN: visiting /dev/outbox?access=TOKEN
 *   once leaves a cookie that proves it (an HMAC of the token, never the token itself).
 * Production is never a preview, so there only the first rule can open it. Node runtime (middleware).
 */
export const previewAccessCookieName = () => (isSecureOrigin() ? "__Host-preview-access" : "preview-access");
/** A preview lives as long as its pull request; a month covers a review. */
const COOKIE_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

/** Equal in time that depends on neither value: both are hashed to 32 bytes first. */
function constantTimeEqual(a: string, b: string): boolean {
  return timingSafeEqual(createHash("sha256").update(a).digest(), createHash("sha256").update(b).digest());
}

/** The configured token on a preview; null wherever reviewers are not let in. */
function reviewerToken(): string | null {
  const e = env();
  return isPreview(e) && e.PREVIEW_ACCESS_TOKEN ? e.PREVIEW_ACCESS_TOKEN : null;
}

const cookieProof = (token: string) => createHmac("sha256", authSecret()).update(`preview-access:${token}`).digest("base64url");

/** Whether `candidate` (the ?access= of a visit) is this preview's reviewer token. */
export function isReviewerToken(candidate: string | null | undefined): boolean {
  const token = reviewerToken();
  return token !== null && typeof candidate === "string" && constantTimeEqual(candidate, token);
}

/** Whether a cookie value proves the reviewer token (it changes with the token and with AUTH_SECRET). */
export function isReviewerCookie(value: string | null | undefined): boolean {
  const token = reviewerToken();
  return token !== null && typeof value === "string" && constantTimeEqual(value, cookieProof(token));
}

/** Gives the reviewer's browser the cookie (after isReviewerToken said yes). */
export function grantReviewerCookie(response: NextResponse): NextResponse {
  const token = reviewerToken();
  if (token)
    response.cookies.set(previewAccessCookieName(), cookieProof(token), {
      httpOnly: true,
      sameSite: "lax",
      secure: isSecureOrigin(),
      path: "/",
      maxAge: COOKIE_MAX_AGE_SECONDS,
    });
  return response;
}

/** The one check of the outbox's page and call: loopback with the dev outbox on, or a preview's reviewer. */
export function mayReadOutbox(headers: Headers): boolean {
  return (devOutboxEnabled() && isLoopbackCaller(headers)) || isReviewerCookie(cookieValue(headers, previewAccessCookieName()));
}

/** The outbox visit with ?access=: the reviewer's token becomes a cookie and leaves the address bar. */
export function reviewerVisit(request: NextRequest): { to: URL } | null {
  const { pathname, searchParams } = request.nextUrl;
  if (pathname !== "/dev/outbox" || !searchParams.has("access") || !isReviewerToken(searchParams.get("access"))) return null;
  const to = new URL("/dev/outbox", request.nextUrl.origin);
  const recipient = searchParams.get("to");
  if (recipient) to.searchParams.set("to", recipient);
  return { to };
}

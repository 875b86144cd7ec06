import { NextResponse, type NextRequest } from "next/server";
import { applyGuardCookie, readGuardSession } from "@/lib/auth/guard-session";
import { CONFIRM_SIGN_OUT_PATH, cookieMovesVisitor, edgeGuard, signOutFromAnotherSite, type GuardUser } from "@/lib/auth/guard";
import { activeSessionUser } from "@/lib/auth/sessions";
import { earlyRefusal, refusalBody, serverActionBodyRefusal, SERVER_ACTION_BODY_BYTES, type Refusal } from "@/lib/http/early-refusal";
import {
  contentSecurityPolicy,
  newNonce,
  pageHeaders,
  prerenderedPageContentSecurityPolicy,
  staticSecurityHeaders,
} from "@/lib/csp/headers";
import { prerenderedScriptHashes } from "@/lib/csp/static-pages";
import { grantReviewerCookie, reviewerVisit } from "@/lib/http/preview-access";
import { describeError } from "@/lib/log";
import { withDb } from "@/lib/with-db";

/**
 * The route guard. Node.js runtime (it reads the prerendered pages' scripts from the build): it
 * reads the session cookie (lib/auth/guard-session renews it once a day), and the session row
 * only where the cookie alone would send its holder on (cookieMovesVisitor: /, /register);
 * pages and API handlers re-check the session row, so a revoked session never reaches data.
 */

/** The guard's answer for a page, with its security headers. */
function pageResponse(request: NextRequest, user: GuardUser | null): NextResponse {
  const { pathname, searchParams } = request.nextUrl;
  const decision = edgeGuard(pathname, searchParams, user);
  if (decision.action === "redirect")
    return withHeaders(NextResponse.redirect(new URL(decision.to, request.nextUrl.origin)), contentSecurityPolicy(newNonce()));
  // A prerendered page is the same bytes for everyone: its inline scripts are allowed by hash.
  const invited = pathname === "/register" && searchParams.has("invite");
  const hashes = invited ? null : prerenderedScriptHashes(pathname);
  if (hashes) return withHeaders(NextResponse.next(), prerenderedPageContentSecurityPolicy(hashes));
  // Rendered now: Next.js reads the nonce from the request's policy and puts it on its scripts.
  const csp = contentSecurityPolicy(newNonce());
  const headers = new Headers(request.headers);
  headers.set("content-security-policy", csp);
  // An invited partner's /register is the invitation page, read per request; plain /register is prerendered.
  const response = invited
    ? NextResponse.rewrite(new URL(`/invitation/accept${request.nextUrl.search}`, request.nextUrl.origin), { request: { headers } })
    : NextResponse.next({ request: { headers } });
  return withHeaders(response, csp);
}

/**
 * Whether the cookie's session row is still live. Out of reach (the database down), the guard
 * answers from the cookie, as on every other page: the pages re-check the row, and an outage
 * must neither answer 500 from the guard nor sign anyone out (clear their cookie).
 */
async function sessionStillLive(sessionId: string, userId: string): Promise<boolean> {
  try {
    return (await withDb((db) => activeSessionUser(db, sessionId))) === userId;
  } catch (error) {
    console.error("[guard] session row not read", describeError(error));
    return true;
  }
}

function withHeaders(response: NextResponse, csp: string): NextResponse {
  for (const { key, value } of [...staticSecurityHeaders(), ...pageHeaders(csp)]) response.headers.set(key, value);
  return response;
}

/**
 * A server action's body Next could not decode (serverActionBodyRefusal), read from the copy of the
 * body Next hands middleware, at most one byte past Next's limit; null for any other request.
 */
async function actionBodyRefusal(request: NextRequest): Promise<Refusal | null> {
  if (request.method !== "POST" || !request.headers.has("next-action") || request.nextUrl.pathname.startsWith("/api/")) return null;
  const reader = request.body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (reader && size <= SERVER_ACTION_BODY_BYTES) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
  }
  await reader?.cancel();
  const body = new Uint8Array(size);
  chunks.reduce((offset, chunk) => (body.set(chunk, offset), offset + chunk.byteLength), 0);
  return serverActionBodyRefusal(request.headers.get("content-type") ?? "", body);
}

/**
 * Refuses malformed paths (pages and API) and cross-site posts to pages first; then guards pages.
 * API paths come here only when the matcher below sees a `%` in them.
 */
export default async function middleware(request: NextRequest) {
  const { pathname } = request.nextUrl;
  const refusal = earlyRefusal(request.method, pathname, request.headers) ?? (await actionBodyRefusal(request));
  if (refusal) {
    const response = NextResponse.json(refusalBody(refusal), { status: refusal.status });
    for (const { key, value } of staticSecurityHeaders()) response.headers.set(key, value);
    return response;
  }
  if (pathname.startsWith("/api/")) return NextResponse.next();
  if (signOutFromAnotherSite(pathname, request.headers.get("sec-fetch-site")))
    return withHeaders(
      NextResponse.redirect(new URL(CONFIRM_SIGN_OUT_PATH, request.nextUrl.origin), 303),
      contentSecurityPolicy(newNonce()),
    );
  const reviewer = reviewerVisit(request);
  if (reviewer) return grantReviewerCookie(withHeaders(NextResponse.redirect(reviewer.to, 303), contentSecurityPolicy(newNonce())));
  let session = await readGuardSession(request);
  const { claims } = session;
  let user: GuardUser | null = claims && {
    emailVerified: claims.emailVerified,
    profileComplete: claims.profileComplete,
    isPartnerB: claims.isPartnerB,
  };
  // Only where the cookie alone would send its holder on does the guard read the session row: an
  // ended session's holder is then a visitor, and its cookie goes.
  if (claims && user && cookieMovesVisitor(pathname, request.nextUrl.searchParams, user)) {
    const live = await sessionStillLive(claims.sid, claims.sub);
    if (!live) [user, session] = [null, { claims: null, cookie: "clear" }];
  }
  return applyGuardCookie(request, pageResponse(request, user), session);
}

/**
 * Pages, and API paths with a `%` (a malformed one would make Next's router answer 500); public
 * files (icons, the about page's screenshots) are served as they are. Other
 * API routes check their own caller, get their static headers from next.config.ts, and stay
 * out of the proxy: it would buffer (and past 10 MB silently cut) every upload body.
 * The prerendered public pages (lib/csp/static-pages UNGUARDED_PAGES) come here
 * only when the guard has something to decide (guardedWhen: a session, a possible server action,
 * an invitation); otherwise the build wrote their policy into its routes
 * (scripts/static-page-headers.ts).
 * Next reads this object as written, so the names are spelled out; a unit test holds them to
 * guardedWhen.
 */
export const config = {
  runtime: "nodejs",
  matcher: [
    "/((?!api/|(?:login|register|forgot-password|about|terms|privacy|guidelines|safety)/?$|_next/static|_next/image|screenshots/|favicon.ico|icon.svg|apple-icon.png|icon-192.png|icon-512.png|manifest.webmanifest|robots.txt|sw.js).*)",
    {
      source: "/(login|register|forgot-password|about|terms|privacy|guidelines|safety)",
      has: [{ type: "cookie", key: "authjs.session-token" }],
    },
    {
      source: "/(login|register|forgot-password|about|terms|privacy|guidelines|safety)",
      has: [{ type: "cookie", key: "__Secure-authjs.session-token" }],
    },
    { source: "/(login|register|forgot-password|about|terms|privacy|guidelines|safety)", has: [{ type: "header", key: "origin" }] },
    { source: "/(login|register|forgot-password|about|terms|privacy|guidelines|safety)", has: [{ type: "header", key: "next-action" }] },
    { source: "/(login|register|forgot-password|about|terms|privacy|guidelines|safety)", has: [{ type: "header", key: "content-type" }] },
    { source: "/register", has: [{ type: "query", key: "invite" }] },
    "/api/(.*%.*)",
  ],
};

/**
 * Requests middleware.ts refuses before Next.js routes them, each of which Next would otherwise
 * answer with a 500. Pure and Edge-safe.
 */
export type Refusal = { status: 400 | 403; code: "VALIDATION_ERROR" | "FORBIDDEN"; message: string };

/**
 * A path whose percent-encoding does not decode (`/profile/%ff`): Next's route matcher throws
 * while decoding a dynamic segment, before any handler or page runs.
 */
export function isMalformedPath(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return false;
  } catch {
    return true;
  }
}

/** The host a request was sent to, as Next's server-action check reads it: X-Forwarded-Host first, else Host. */
const requestHost = (headers: Headers) => headers.get("x-forwarded-host")?.split(",")[0]?.trim() || headers.get("host");

/**
 * A POST to a page (only server actions accept one) from another site's page. Next refuses
 * such a server action itself, but by throwing, which answers 500; an `Origin` that is
 * "null" or unreadable is another site too. Without `Origin` (no browser sends a cross-site
 * POST without it) Next's own rule applies.
 */
export function isCrossSitePagePost(method: string, headers: Headers): boolean {
  const origin = headers.get("origin");
  if (method !== "POST" || origin === null) return false;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return true;
  }
  return originHost === "" || originHost !== requestHost(headers);
}

/** What to answer instead of routing the request, or null to route it. `pathname` as sent (still encoded). */
export function earlyRefusal(method: string, pathname: string, headers: Headers): Refusal | null {
  if (isMalformedPath(pathname)) return { status: 400, code: "VALIDATION_ERROR", message: "The address is not valid." };
  if (!pathname.startsWith("/api/") && isCrossSitePagePost(method, headers)) {
    return { status: 403, code: "FORBIDDEN", message: "Cross-site requests are not allowed." };
  }
  return null;
}

/** What a refusal answers, as the API's errors are shaped. */
export const refusalBody = (refusal: Refusal) => ({ error: { code: refusal.code, message: refusal.message } });

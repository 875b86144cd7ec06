/**
 * The browser's side of CSRF protection (spec section 7): cookie-authenticated POST, PUT, PATCH
 * and DELETE calls carry X-CSRF-Token from GET /api/csrf-token, and a refused token is fetched
 * again and the call sent once more (section 7, client behaviour). Browser only.
 */
import "client-only";

export const CSRF_HEADER = "X-CSRF-Token";

/** A server's answer as the retry needs to see it: its status and its JSON body (null if none). */
export type CsrfAnswer = { status: number; json: unknown };

/** No token could be had. `status` is the token answer's, 401 when it held none, null when the request could not be made. */
export class CsrfTokenError extends Error {
  constructor(readonly status: number | null) {
    super(status === null ? "Network error" : status === 401 ? "Not authenticated" : `Request failed with status ${status}`);
    this.name = "CsrfTokenError";
  }
}

async function fetchToken(): Promise<string> {
  let response: Response;
  try {
    response = await fetch("/api/csrf-token", { credentials: "same-origin", cache: "no-store", headers: { Accept: "application/json" } });
  } catch {
    throw new CsrfTokenError(null);
  }
  if (!response.ok) throw new CsrfTokenError(response.status);
  const body = (await response.json().catch(() => null)) as { csrfToken?: unknown; token?: unknown } | null;
  const token = [body?.csrfToken, body?.token].find((value) => typeof value === "string" && value !== "");
  // The server binds the token to the session cookie: no token means no session.
  if (typeof token !== "string") throw new CsrfTokenError(401);
  return token;
}

/** One token per page while it is accepted; a failed fetch is not kept, so the next call asks again. */
let cachedToken: Promise<string> | null = null;

/** The session's CSRF token; `fresh` fetches a new one instead of the kept one. Throws CsrfTokenError. */
function csrfToken(fresh = false): Promise<string> {
  if (fresh || !cachedToken) {
    const pending = fetchToken();
    cachedToken = pending;
    pending.catch(() => {
      if (cachedToken === pending) cachedToken = null;
    });
  }
  return cachedToken;
}

/** The spec's refused-token answer: 403 with code CSRF_VALIDATION_FAILED, or the error text 'Invalid CSRF token'. */
function isCsrfRefusal({ status, json }: CsrfAnswer): boolean {
  if (status !== 403 || typeof json !== "object" || json === null) return false;
  const error = (json as { error?: unknown }).error;
  if (error === "Invalid CSRF token") return true;
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "CSRF_VALIDATION_FAILED";
}

/**
 * Sends with the session's token; when that token is refused (it belongs to the session, so it
 * goes stale after signing in again), fetches a fresh one and sends once more.
 */
export async function withCsrfRetry<T extends CsrfAnswer>(send: (token: string) => Promise<T>): Promise<T> {
  const answer = await send(await csrfToken());
  if (!isCsrfRefusal(answer)) return answer;
  return send(await csrfToken(true));
}

/** A mutating fetch with the session cookie and X-CSRF-Token (see withCsrfRetry); answers `ok`, status and JSON body. */
export function csrfFetch(url: string, init: RequestInit & { headers?: Record<string, string> }): Promise<CsrfAnswer & { ok: boolean }> {
  return withCsrfRetry(async (token) => {
    const response = await fetch(url, { ...init, credentials: "same-origin", headers: { ...init.headers, [CSRF_HEADER]: token } });
    return { ok: response.ok, status: response.status, json: await response.json().catch(() => null) };
  });
}

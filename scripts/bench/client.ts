/**
 * The bench's HTTP client: the calls its virtual users make against the server on ORIGIN. A
 * call that does not answer as it should throws, and the load counts it as a failure by reason.
 */
import { ORIGIN, REQUEST_TIMEOUT_MS } from "./config";
import { PASSWORD, type Account } from "./accounts";

/** A distinct client address per virtual user, from the benchmarking range 198.18.0.0/15. */
export const addressOf = (worker: number) => `198.18.${worker >> 8}.${worker & 255}`;

export async function callJson(
  pathname: string,
  address: string,
  init: RequestInit = {},
  origin = ORIGIN,
): Promise<Record<string, unknown>> {
  const response = await fetch(`${origin}${pathname}`, {
    ...init,
    headers: { "x-forwarded-for": address, ...init.headers },
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${response.status} ${text.slice(0, 160)}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/** A page (of the app, or of the server at `origin`): 200 with HTML, never a redirect (which would mean the guard sent us elsewhere). */
export async function getPage(pathname: string, address: string, cookie?: string, origin = ORIGIN): Promise<void> {
  const response = await fetch(`${origin}${pathname}`, {
    headers: { "x-forwarded-for": address, ...(cookie ? { cookie } : {}) },
    redirect: "manual",
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${pathname}: ${response.status} ${response.headers.get("location") ?? text.slice(0, 120)}`);
}

export async function searchPlaces(query: string, address: string): Promise<void> {
  const body = await callJson(`/api/locations/search/public?${new URLSearchParams({ query, limit: "5" })}`, address);
  const data = body.data as { predictions?: unknown[] } | undefined;
  if (!Array.isArray(data?.predictions)) throw new Error("search answered without predictions");
}

/** The password grant; answers the access token. */
export async function signIn(account: Pick<Account, "email">, address: string): Promise<string> {
  const body = await callJson("/api/auth/token", address, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ grant_type: "password", email: account.email, password: PASSWORD }),
  });
  if (typeof body.access_token !== "string") throw new Error("token response without access_token");
  return body.access_token;
}

export async function me(account: Account, token: string, address: string): Promise<void> {
  const body = await callJson("/api/v2/auth/me", address, { headers: { authorization: `Bearer ${token}` } });
  if (body.userId !== account.id) throw new Error("/me answered for another user");
}

export async function markAllRead(token: string, address: string): Promise<void> {
  await callJson("/api/notifications/read", address, {
    method: "PATCH",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ mark_all: true }),
  });
}

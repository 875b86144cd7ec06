/**
 * The browser's one way to call the API: `api(path, options)` answers the JSON body of a 2xx, or
 * throws one `ApiError` (status, code, message, fields) read from the `{error: {code, message,
 * fields}}` every route answers. Uploads with progress (lib/transport/upload.ts) go through the
 * same rules with XMLHttpRequest. The rules are the spec's (section 7, client behaviour on
 * answers; section 9, retries):
 * - POST, PUT, PATCH and DELETE carry X-CSRF-Token from GET /api/csrf-token (kept per page); a
 *   403 CSRF_VALIDATION_FAILED (or the error 'Invalid CSRF token') fetches a fresh token and
 *   sends once more.
 * - 429 waits for Retry-After (60 s when absent, section 8) and tries again, unless that is more
 *   than a person waits on a button (RATE_LIMIT_WAIT_MAX_MS): then the server's message at once.
 * - 502, 503, 504 and network failures (section 8's transient list; an answer whose body broke
 *   off on the way is one, never an empty answer) are tried again, 3 times, after 1000 ms
 *   doubling, capped at 5000 ms, plus up to 1000 ms of jitter (or the answer's Retry-After).
 *   A POST creates something, so it is tried again only when the answer says nothing was done:
 *   429, and a 503 with code SERVICE_UNAVAILABLE (the server refused before starting: its
 *   database known to be down, its password checks full). Any other failure may have reached
 *   the server and done the work (a network failure, 502, 504, a 503 without that code, such as
 *   OUTCOME_UNKNOWN, the database lost during the call, a COMMIT's included): it is the caller's to retry.
 * - 401 on a call that needs the session: the session has ended (the browser's session is its
 *   cookie, renewed by the route guard; there is nothing here to refresh), so the page leaves for
 *   /signout, which clears this browser's storage and signs out (a full logout), then /login.
 * - Every other 4xx, and 500, is thrown at once.
 * Around those rules, section 7's request manager, keyed by the method and the path with its query
 * (section 8's texts; uploads follow the first two too):
 * - A 429 that ends a call (its wait longer than RATE_LIMIT_WAIT_MAX_MS, or no tries left) refuses
 *   that key until its retry time, without a request: 429 RATE_LIMITED 'Rate limited. Please wait
 *   N seconds.' (N the seconds left, rounded up).
 * - A write key sent more than MAX_WRITES_PER_WINDOW times within WINDOW_MS is refused without a
 *   request: 429 RATE_LIMITED 'Too many requests. Please slow down.' (section 9: 60 a minute). Writes
 *   only: each is a person's act (a tap, a send), or follows one (a read position per message
 *   arriving, a typing signal every 3 s), so only a loop reaches the limit. Reads are not limited:
 *   the live feeds' loads follow the stream's events, as many as others cause
 *   (lib/live/client/use-live.ts), and a refused one would leave the screen stale.
 * - Identical reads in flight at once share one request, on the first caller's options; each
 *   caller gets its own copy of the answer, and one caller's abort ends only its own wait (the
 *   last one's ends the request). A read in flight when a write answers is not shared after it:
 *   it may not show the write. Nothing is cached once answered, unlike the spec's 30 s: live data
 *   would go stale (the live hook decides when to load again).
 * Browser only.
 */
import "client-only";
import type { ErrorCode } from "@/lib/errors";

export const CSRF_HEADER = "X-CSRF-Token";
/** Section 9: 3 attempts after the first, from 1000 ms doubling, capped at 5000 ms, plus up to 1000 ms of jitter. */
export const RETRY_ATTEMPTS = 3;
const RETRY_BASE_MS = 1000;
const RETRY_CAP_MS = 5000;
const RETRY_JITTER_MS = 1000;
/** Section 8: a 429 without Retry-After waits 60 s. */
const RATE_LIMIT_DEFAULT_WAIT_MS = 60_000;
/** Longer waits than this are not sat out behind a busy button: the server's message says to come back later. */
export const RATE_LIMIT_WAIT_MAX_MS = 10_000;
/** Section 9: a request that has not answered in 30 s is given up (and, where safe, tried again). */
export const REQUEST_TIMEOUT_MS = 30_000;
/**
 * Section 9: the request manager's window, and the calls of one write key it lets through: the
 * general 'max requests per minute 60'. Its request-manager line's 10 per key would refuse a lively
 * conversation's read positions (one per message arriving) and typing signals (20 a minute).
 */
const WINDOW_MS = 60_000;
export const MAX_WRITES_PER_WINDOW = 60;

/**
 * What a failed call says: the answer's status (0: no answer, code NETWORK_ERROR), its code (null
 * when the answer had none) and message, and per-field messages for forms.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | null,
    message: string,
    readonly fields: Record<string, string> = {},
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** Section 8's generic texts for a failure without a message of its own. */
export type FailureTexts = { status(status: number): string; network: string; afterRetries: string };
const API_TEXTS: FailureTexts = {
  status: (status) => `Request failed with status ${status}`,
  network: "Network error",
  afterRetries: "Request failed after retries",
};

const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);

/**
 * The one reader of an error answer: `{error: {code, message, fields}}`, or the spec's older
 * `{error: "text"}` and `{message}`; without a message, `fallback`.
 */
export function answerError(status: number, json: unknown, fallback = API_TEXTS.status(status)): ApiError {
  const body = (typeof json === "object" && json !== null ? json : {}) as { error?: unknown; message?: unknown };
  const error = (typeof body.error === "object" && body.error !== null ? body.error : {}) as {
    code?: unknown;
    message?: unknown;
    fields?: unknown;
  };
  const fields = typeof error.fields === "object" && error.fields !== null ? (error.fields as Record<string, string>) : {};
  const message = text(error.message) ?? text(body.error) ?? text(body.message) ?? fallback;
  return new ApiError(status, text(error.code) ?? null, message, fields);
}

/** No answer came: the request could not be sent, the connection dropped, or it timed out. */
export class NetworkFailure extends Error {
  constructor() {
    super("Network failure");
    this.name = "NetworkFailure";
  }
}

/** A status and JSON body (null when there is none), and the Retry-After header. */
export type Answer = { status: number; json: unknown; retryAfter: string | null };

/**
 * An answer's JSON body: null when it has none (or it is not JSON). A body cut off on its way
 * (the connection dropped, a server restarting) is no answer at all, never an empty one.
 */
async function answerBody(response: Response): Promise<unknown> {
  let raw: string;
  try {
    raw = await response.text();
  } catch {
    throw new NetworkFailure();
  }
  try {
    return raw === "" ? null : (JSON.parse(raw) as unknown);
  } catch {
    return null;
  }
}

async function fetchToken(): Promise<string> {
  let response: Response;
  try {
    response = await fetch("/api/csrf-token", { credentials: "same-origin", cache: "no-store", headers: { Accept: "application/json" } });
  } catch {
    throw new NetworkFailure();
  }
  const json = await answerBody(response);
  if (!response.ok) throw answerError(response.status, json);
  const body = json as { csrfToken?: unknown; token?: unknown } | null;
  const token = text(body?.csrfToken) ?? text(body?.token);
  // The server binds the token to the session cookie: no token means no session.
  if (!token) throw new ApiError(401, "UNAUTHENTICATED", "Not authenticated");
  return token;
}

/** One token per page while it is accepted; a failed fetch is not kept, so the next call asks again. */
let cachedToken: Promise<string> | null = null;

function csrfToken(fresh: boolean): Promise<string> {
  if (fresh || !cachedToken) {
    const pending = fetchToken();
    cachedToken = pending;
    pending.catch(() => {
      if (cachedToken === pending) cachedToken = null;
    });
  }
  return cachedToken;
}

/** Section 7's refused-token answer: 403 with code CSRF_VALIDATION_FAILED, or the error text 'Invalid CSRF token'. */
const isCsrfRefusal = (error: ApiError) =>
  error.status === 403 && (error.code === "CSRF_VALIDATION_FAILED" || error.message === "Invalid CSRF token");

/** Once the page is on its way out, a session-ended answer no longer sends it elsewhere. */
let leaving = false;

/** A full navigation away (a page load, so nothing of this page is kept), taken once. */
export function leavePage(url: string): void {
  if (leaving) return;
  leaving = true;
  window.location.replace(url);
}

/** Section 7: a 401 on a session call is a full logout (/signout clears local and session storage, then signs out). */
function sessionEnded(): void {
  if (typeof window !== "undefined") leavePage("/signout");
}

/** Milliseconds from a Retry-After header (seconds or an HTTP date); null when it says nothing usable. */
function retryAfterMs(header: string | null): number | null {
  if (header === null || header.trim() === "") return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

/** The one 503 that says nothing was done (lib/errors.ts): a POST may be sent again on it. */
const REFUSED_BEFORE_STARTING: ErrorCode = "SERVICE_UNAVAILABLE";

const backoffMs = (retry: number) => Math.min(RETRY_BASE_MS * 2 ** retry, RETRY_CAP_MS) + Math.random() * RETRY_JITTER_MS;

/**
 * How long to wait before trying again, or null to give up now. `sentSafely`: the method may be
 * repeated whatever happened to the first try (everything but POST).
 */
function retryDelay(failure: ApiError | NetworkFailure, retryAfter: string | null, retry: number, sentSafely: boolean): number | null {
  if (failure instanceof NetworkFailure) return sentSafely ? backoffMs(retry) : null;
  const told = retryAfterMs(retryAfter);
  if (failure.status === 429) {
    const wait = told ?? RATE_LIMIT_DEFAULT_WAIT_MS;
    return wait <= RATE_LIMIT_WAIT_MAX_MS ? wait : null;
  }
  const transient =
    failure.status === 503
      ? sentSafely || failure.code === REFUSED_BEFORE_STARTING
      : sentSafely && (failure.status === 502 || failure.status === 504);
  if (!transient) return null;
  if (told === null) return backoffMs(retry);
  return told <= RATE_LIMIT_WAIT_MAX_MS ? told : null;
}

function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const abort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", abort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", abort, { once: true });
  });
}

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

const RATE_LIMITED: ErrorCode = "RATE_LIMITED";
/** Keys a 429 refused, until when (ms). */
const refusedUntil = new Map<string, number>();
/** The times each write key was sent within the window. */
const writesSent = new Map<string, number[]>();

/** The request manager's refusal of a call before any request (see the header), or null; a call let through counts in its window. */
function refusal(method: Method, key: string): ApiError | null {
  const now = Date.now();
  for (const [each, until] of refusedUntil) if (until <= now) refusedUntil.delete(each);
  const until = refusedUntil.get(key);
  if (until !== undefined) return new ApiError(429, RATE_LIMITED, `Rate limited. Please wait ${Math.ceil((until - now) / 1000)} seconds.`);
  if (method === "GET") return null;
  for (const [each, times] of writesSent) {
    const recent = times.filter((at) => now - at < WINDOW_MS);
    if (recent.length > 0) writesSent.set(each, recent);
    else writesSent.delete(each);
  }
  const times = writesSent.get(key) ?? [];
  if (times.length >= MAX_WRITES_PER_WINDOW) return new ApiError(429, RATE_LIMITED, "Too many requests. Please slow down.");
  writesSent.set(key, [...times, now]);
  return null;
}

/** How long the request manager still refuses `method` on `path` after a 429 (ms; 0: it lets it through). */
export function refusedFor(method: Method, path: string): number {
  const until = refusedUntil.get(`${method} ${path}`);
  return until === undefined ? 0 : Math.max(0, until - Date.now());
}

export type CallOptions = {
  signal?: AbortSignal;
  /** Tries after the first on a transient failure: RETRY_ATTEMPTS by default, 0 for an answer that is stale by then (a type-ahead). */
  retries?: number;
  /** A public route: no session, so no CSRF token is sent and a 401 is an answer like any other. */
  public?: boolean;
};

/**
 * The rules above around one way of sending to `path`: `send` gets the CSRF token (null for reads
 * and public calls) and answers, throws NetworkFailure when no answer came, or throws anything
 * else (an abort) to end the call as it is.
 */
export async function exchange<T>(
  method: Method,
  path: string,
  send: (token: string | null) => Promise<Answer>,
  options: CallOptions = {},
  texts: FailureTexts = API_TEXTS,
): Promise<T> {
  const key = `${method} ${path}`;
  const refused = refusal(method, key);
  if (refused) throw refused;
  const needsToken = method !== "GET" && !options.public;
  const retries = options.retries ?? RETRY_ATTEMPTS;
  let tokenRefused = false;
  let refreshToken = false;
  for (let retry = 0; ; retry++) {
    let failure: ApiError | NetworkFailure;
    let retryAfter: string | null = null;
    try {
      const token = needsToken ? await csrfToken(refreshToken) : null;
      refreshToken = false;
      const answer = await send(token);
      if (answer.status >= 200 && answer.status < 300) return answer.json as T;
      failure = answerError(answer.status, answer.json, texts.status(answer.status));
      retryAfter = answer.retryAfter;
    } catch (error) {
      if (!(error instanceof ApiError || error instanceof NetworkFailure)) throw error;
      failure = error;
    }
    if (failure instanceof ApiError && isCsrfRefusal(failure) && needsToken && !tokenRefused) {
      // The token belongs to the session, so it goes stale after signing in again: once more with a fresh one.
      tokenRefused = refreshToken = true;
      retry--;
      continue;
    }
    const delay = retry < retries ? retryDelay(failure, retryAfter, retry, method !== "POST") : null;
    if (delay === null) {
      if (failure instanceof NetworkFailure) throw new ApiError(0, "NETWORK_ERROR", retry > 0 ? texts.afterRetries : texts.network);
      if (failure.status === 401 && !options.public) sessionEnded();
      if (failure.status === 429) refusedUntil.set(key, Date.now() + (retryAfterMs(retryAfter) ?? RATE_LIMIT_DEFAULT_WAIT_MS));
      throw failure;
    }
    await wait(delay, options.signal);
  }
}

export type ApiOptions = CallOptions & {
  method?: Method;
  /** Sent as JSON; a FormData goes as multipart. */
  body?: unknown;
};

/** One fetch with the session cookie, given up after REQUEST_TIMEOUT_MS; the caller's abort ends it as an abort. */
async function fetchAnswer(path: string, init: RequestInit, signal: AbortSignal | undefined): Promise<Answer> {
  const controller = new AbortController();
  const timeout = setTimeout(() => controller.abort(), REQUEST_TIMEOUT_MS);
  const forward = () => controller.abort(signal!.reason);
  signal?.addEventListener("abort", forward, { once: true });
  try {
    if (signal?.aborted) throw signal.reason;
    const response = await fetch(path, { ...init, credentials: "same-origin", cache: "no-store", signal: controller.signal });
    const json = await answerBody(response);
    return { status: response.status, json, retryAfter: response.headers.get("Retry-After") };
  } catch {
    if (signal?.aborted) throw signal.reason;
    throw new NetworkFailure();
  } finally {
    clearTimeout(timeout);
    signal?.removeEventListener("abort", forward);
  }
}

/** A read in flight that later identical reads share: its answer, and how many callers still wait on it. */
type SharedRead = { answer: Promise<unknown>; waiting: number; controller: AbortController };
const readsInFlight = new Map<string, SharedRead>();

function startRead(path: string, start: (signal: AbortSignal) => Promise<unknown>): SharedRead {
  const controller = new AbortController();
  const read: SharedRead = { answer: start(controller.signal), waiting: 0, controller };
  // Settled, it is shared no more (every caller handles a failure on its own promise).
  const settled = () => {
    if (readsInFlight.get(path) === read) readsInFlight.delete(path);
  };
  read.answer.then(settled, settled);
  readsInFlight.set(path, read);
  return read;
}

/** Waits on the read in flight for `path`, or starts it with `start` (see the header). */
function sharedRead<T>(path: string, start: (signal: AbortSignal) => Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal?.aborted) return Promise.reject(signal.reason as Error);
  const joined = readsInFlight.get(path);
  const read = joined ?? startRead(path, start);
  read.waiting++;
  return new Promise<T>((resolve, reject) => {
    const abort = () => {
      reject(signal!.reason as Error);
      if (--read.waiting > 0) return;
      if (readsInFlight.get(path) === read) readsInFlight.delete(path);
      read.controller.abort(signal!.reason);
    };
    signal?.addEventListener("abort", abort, { once: true });
    read.answer.then(
      (value) => {
        signal?.removeEventListener("abort", abort);
        // A copy for each caller after the first: what one changes never shows in another's.
        resolve((joined ? structuredClone(value) : value) as T);
      },
      (error: unknown) => {
        signal?.removeEventListener("abort", abort);
        reject(error as Error);
      },
    );
  });
}

/** Calls the API (see the file's header): the JSON body of a 2xx answer (null when it has none), or an ApiError. */
export function api<T = unknown>(path: string, { method = "GET", body, ...options }: ApiOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json" };
  const isForm = body instanceof FormData;
  if (body !== undefined && !isForm) headers["Content-Type"] = "application/json";
  const payload = body === undefined ? undefined : isForm ? body : JSON.stringify(body);
  const call = (signal: AbortSignal | undefined) =>
    exchange<T>(
      method,
      path,
      (token) => fetchAnswer(path, { method, body: payload, headers: token ? { ...headers, [CSRF_HEADER]: token } : headers }, signal),
      { ...options, signal },
    );
  if (method === "GET") return sharedRead(path, call, options.signal);
  return call(options.signal).finally(() => readsInFlight.clear());
}

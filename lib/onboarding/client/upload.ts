/**
 * Multipart uploads with real progress: fetch cannot report upload progress, XMLHttpRequest can.
 * Cookie-authenticated mutating calls carry X-CSRF-Token (see lib/http/request-auth.ts).
 */

export type UploadResult = { status: number; json: unknown };
export type UploadOptions = { onProgress?(fraction: number): void; signal?: AbortSignal };

const CSRF_TOKEN_URL = "/api/csrf-token";

/** One token per page while it is accepted; a refused one is fetched again. */
let cachedToken: Promise<string | null> | null = null;

async function fetchCsrfToken(): Promise<string | null> {
  let response: Response;
  try {
    response = await fetch(CSRF_TOKEN_URL, { credentials: "same-origin", cache: "no-store", headers: { Accept: "application/json" } });
  } catch {
    throw new Error("Upload failed - network error");
  }
  const body: unknown = await response.json().catch(() => null);
  if (typeof body !== "object" || body === null) return null;
  const { csrfToken, token } = body as { csrfToken?: unknown; token?: unknown };
  if (typeof csrfToken === "string" && csrfToken) return csrfToken;
  return typeof token === "string" && token ? token : null;
}

function csrfToken(fresh: boolean): Promise<string | null> {
  if (fresh || !cachedToken) {
    cachedToken = fetchCsrfToken();
    cachedToken.catch(() => (cachedToken = null));
  }
  return cachedToken;
}

/** The spec's refused-token answer: 403 with code CSRF_VALIDATION_FAILED, or the error text 'Invalid CSRF token'. */
function isCsrfFailure({ status, json }: UploadResult): boolean {
  if (status !== 403 || typeof json !== "object" || json === null) return false;
  const error = (json as { error?: unknown }).error;
  if (error === "Invalid CSRF token") return true;
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "CSRF_VALIDATION_FAILED";
}

function parseJson(text: string): { json: unknown } | null {
  try {
    return { json: JSON.parse(text) };
  } catch {
    return null;
  }
}

function send(url: string, form: FormData, token: string | null, { onProgress, signal }: UploadOptions): Promise<UploadResult> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Error("Upload cancelled"));
    const request = new XMLHttpRequest();
    const abort = () => request.abort();
    const settle = () => signal?.removeEventListener("abort", abort);
    request.open("POST", url);
    request.setRequestHeader("Accept", "application/json");
    if (token) request.setRequestHeader("X-CSRF-Token", token);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(event.loaded / event.total);
    };
    request.onload = () => {
      settle();
      const ok = request.status >= 200 && request.status < 300;
      const parsed = parseJson(request.responseText);
      if (ok) onProgress?.(1);
      if (parsed) resolve({ status: request.status, json: parsed.json });
      else if (ok) resolve({ status: request.status, json: null });
      else reject(new Error(`Upload failed with status ${request.status}`));
    };
    request.onerror = () => {
      settle();
      reject(new Error("Upload failed - network error"));
    };
    request.onabort = () => {
      settle();
      reject(new Error("Upload cancelled"));
    };
    signal?.addEventListener("abort", abort, { once: true });
    request.send(form);
  });
}

/** POSTs multipart with real upload progress (XMLHttpRequest), with the session cookie and X-CSRF-Token (fetched from GET /api/csrf-token, reads csrfToken or token; on a 403 CSRF_VALIDATION_FAILED it refetches the token and retries once). */
export async function uploadForm(url: string, form: FormData, options: UploadOptions = {}): Promise<UploadResult> {
  const result = await send(url, form, await csrfToken(false), options);
  if (!isCsrfFailure(result)) return result;
  return send(url, form, await csrfToken(true), options);
}

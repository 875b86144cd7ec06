/**
 * Multipart uploads with real progress: fetch cannot report upload progress, XMLHttpRequest can.
 * Cookie-authenticated mutating calls carry X-CSRF-Token (see lib/http/csrf-client.ts).
 */
import "client-only";
import { CSRF_HEADER, CsrfTokenError, withCsrfRetry, type CsrfAnswer } from "@/lib/http/csrf-client";

export type UploadResult = CsrfAnswer;
export type UploadOptions = { onProgress?(fraction: number): void; signal?: AbortSignal };

const NETWORK_ERROR = "Upload failed - network error";

function parseJson(text: string): { json: unknown } | null {
  try {
    return { json: JSON.parse(text) };
  } catch {
    return null;
  }
}

function send(url: string, form: FormData, token: string, { onProgress, signal }: UploadOptions): Promise<UploadResult> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Error("Upload cancelled"));
    const request = new XMLHttpRequest();
    const abort = () => request.abort();
    const settle = () => signal?.removeEventListener("abort", abort);
    request.open("POST", url);
    request.setRequestHeader("Accept", "application/json");
    request.setRequestHeader(CSRF_HEADER, token);
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
      reject(new Error(NETWORK_ERROR));
    };
    request.onabort = () => {
      settle();
      reject(new Error("Upload cancelled"));
    };
    signal?.addEventListener("abort", abort, { once: true });
    request.send(form);
  });
}

/**
 * POSTs multipart with real upload progress (XMLHttpRequest), with the session cookie and
 * X-CSRF-Token; a refused token is fetched again and the form sent once more.
 */
export async function uploadForm(url: string, form: FormData, options: UploadOptions = {}): Promise<UploadResult> {
  try {
    return await withCsrfRetry((token) => send(url, form, token, options));
  } catch (error) {
    if (error instanceof CsrfTokenError && error.status === null) throw new Error(NETWORK_ERROR);
    throw error;
  }
}

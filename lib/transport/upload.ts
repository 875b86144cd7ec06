/**
 * Multipart uploads with real progress: fetch cannot report upload progress, XMLHttpRequest can.
 * Everything else is the transport's (lib/transport/client.ts): the CSRF token and its one retry, the
 * retry rules, and one ApiError read from the answer, with section 8's upload texts.
 */
import "client-only";
import { ApiError, CSRF_HEADER, exchange, NetworkFailure, type Answer, type FailureTexts } from "@/lib/transport/client";

export type UploadOptions = { onProgress?(fraction: number): void; signal?: AbortSignal };

const NETWORK_ERROR = "Upload failed - network error";
const UPLOAD_TEXTS: FailureTexts = {
  status: (status) => `Upload failed with status ${status}`,
  network: NETWORK_ERROR,
  afterRetries: NETWORK_ERROR,
};

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function send(url: string, form: FormData, token: string | null, { onProgress, signal }: UploadOptions): Promise<Answer> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Error("Upload cancelled"));
    const request = new XMLHttpRequest();
    const abort = () => request.abort();
    const settle = () => signal?.removeEventListener("abort", abort);
    request.open("POST", url);
    request.setRequestHeader("Accept", "application/json");
    if (token) request.setRequestHeader(CSRF_HEADER, token);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(event.loaded / event.total);
    };
    request.onload = () => {
      settle();
      if (request.status >= 200 && request.status < 300) onProgress?.(1);
      resolve({ status: request.status, json: parseJson(request.responseText), retryAfter: request.getResponseHeader("Retry-After") });
    };
    request.onerror = () => {
      settle();
      reject(new NetworkFailure());
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
 * POSTs multipart with real upload progress (XMLHttpRequest): the JSON body of a 2xx answer, or
 * an ApiError ('Upload failed with status N', 'Upload failed - network error' without a message
 * of the server's); 'Upload cancelled' when `signal` aborts.
 */
export function uploadForm<T = unknown>(url: string, form: FormData, options: UploadOptions = {}): Promise<T> {
  return exchange<T>("POST", url, (token) => send(url, form, token, options), { signal: options.signal }, UPLOAD_TEXTS).catch((error) => {
    // Aborted while waiting to try again: said the same way as aborted while sending.
    throw options.signal?.aborted && !(error instanceof ApiError) ? new Error("Upload cancelled") : error;
  });
}

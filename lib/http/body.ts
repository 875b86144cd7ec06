import { AppError } from "@/lib/errors";

/** A size as the refusal names it: "4.5 MB", "16 kB". */
const sizeText = (bytes: number) => (bytes >= 1_000_000 ? `${Math.round(bytes / 100_000) / 10} MB` : `${Math.round(bytes / 1_000)} kB`);

/**
 * The largest request body any call takes: the platform's limit (a Vercel function refuses a
 * body over 4.5 MB with 413 before the app sees it), so what works here works there. Photos go
 * one per request (`POST /api/uploads`, lib/images/staged.ts) to stay under it.
 */
export const MAX_REQUEST_BYTES = 4_500_000;

/** The spec's request timeout: a body still arriving after this is answered 408. */
export const REQUEST_TIMEOUT_MS = 30_000;

/**
 * The request body, counted while it is read: refused with 413 once it passes `maxBytes` (never
 * more than MAX_REQUEST_BYTES), so a
 * body without (or with a false) Content-Length cannot fill the memory, and with 408 when it has
 * not fully arrived within `timeoutMs`, so a slow client cannot hold the request open. API routes
 * do not pass the proxy's buffer, so these are the only bounds.
 */
export async function readBoundedBody(
  request: Request,
  maxBytes: number,
  timeoutMs = REQUEST_TIMEOUT_MS,
): Promise<Uint8Array<ArrayBuffer>> {
  maxBytes = Math.min(maxBytes, MAX_REQUEST_BYTES);
  const tooLarge = () => new AppError("PAYLOAD_TOO_LARGE", `The request body must be ${sizeText(maxBytes)} or smaller.`);
  if (Number(request.headers.get("content-length") ?? 0) > maxBytes) throw tooLarge();
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const timedOut = new AppError("REQUEST_TIMEOUT", "The request body took too long to arrive. Please try again.");
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(timedOut), timeoutMs);
  });
  deadline.catch(() => {}); // raced below; never left unhandled between two reads
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), deadline]);
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) throw tooLarge();
      chunks.push(value);
    }
  } catch (error) {
    // Not awaited: over a Node request (an async iterator underneath), cancel waits for the
    // pending read, i.e. for the slow client this is meant to stop waiting for.
    void reader.cancel().catch(() => {});
    throw error;
  } finally {
    clearTimeout(timer);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

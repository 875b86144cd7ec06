import "server-only";
import type { StoredObject } from "@/lib/storage";

/**
 * An image's bytes as the app serves them. A public image never changes under its key (a new
 * upload gets a new key), so any cache may keep it for a year. A private one is kept by the
 * viewer's browser only, and asked about again on every use: the answer is checked against who
 * may see it now (an erased photo or a viewer who lost access gets 404, never a cached copy);
 * its key is its entity tag, so an unchanged photo costs a 304.
 */
export function imageResponse(request: Request, key: string, stored: StoredObject, visibility: "public" | "private"): Response {
  const etag = `"${key}"`;
  const headers: Record<string, string> = {
    "Content-Type": stored.contentType,
    "Cache-Control": visibility === "public" ? "public, max-age=31536000, immutable" : "private, no-cache",
    "X-Content-Type-Options": "nosniff",
  };
  if (visibility === "private") {
    headers.ETag = etag;
    if (request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
  }
  headers["Content-Length"] = String(stored.body.byteLength);
  return new Response(new Uint8Array(stored.body), { headers });
}

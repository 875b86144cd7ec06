import "server-only";
import { PUBLIC_OBJECT_CACHE_CONTROL, type StoredObject } from "@/lib/storage";

const CACHE_CONTROL = { public: PUBLIC_OBJECT_CACHE_CONTROL, private: "private, no-cache", unkept: "private, no-store" } as const;

/**
 * An image's bytes as the app serves them. A public image never changes under its key (a new
 * upload gets a new key): browsers keep it a year, shared caches an hour (PUBLIC_OBJECT_CACHE_CONTROL). A private one is kept by the
 * viewer's browser only, and asked about again on every use: the answer is checked against who
 * may see it now (an erased photo or a viewer who lost access gets 404, never a cached copy);
 * its key is its entity tag, so an unchanged photo costs a 304. A verification selfie (a face shown
 * to check who someone is, often on a moderator's shared machine) is never kept anywhere.
 */
export function imageResponse(request: Request, key: string, stored: StoredObject, visibility: "public" | "private" | "unkept"): Response {
  const etag = `"${key}"`;
  const headers: Record<string, string> = {
    "Content-Type": stored.contentType,
    "Cache-Control": CACHE_CONTROL[visibility],
    "X-Content-Type-Options": "nosniff",
  };
  if (visibility === "private") {
    headers.ETag = etag;
    if (request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
  }
  headers["Content-Length"] = String(stored.body.byteLength);
  return new Response(new Uint8Array(stored.body), { headers });
}

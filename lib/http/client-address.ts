/**
 * The caller's address for per-address limits. A proxy appends the address it saw to
 * X-Forwarded-For (Vercel overwrites the header), so the last entry is the one a client cannot
 * forge; anything before it is whatever the client sent. Per-account limits do not depend on it.
 */
export function clientAddress(headers: Headers): string {
  const forwarded = headers.get("x-forwarded-for")?.split(",").at(-1)?.trim();
  return forwarded || headers.get("x-real-ip")?.trim() || "unknown";
}

/**
 * The caller's address for per-address limits. Behind Vercel or another proxy the first
 * X-Forwarded-For entry is the client; the per-account limits do not depend on it.
 */
export function clientAddress(headers: Headers): string {
  const forwarded = headers.get("x-forwarded-for")?.split(",")[0]?.trim();
  return forwarded || headers.get("x-real-ip")?.trim() || "unknown";
}

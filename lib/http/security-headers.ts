import { isSecureOrigin } from "../env";

/** Security headers, in one place: next.config.ts sets the static ones, middleware.ts the CSP. Edge-safe. */

const isProduction = () => process.env.NODE_ENV === "production";
/** HTTPS-only rules apply to a production deployment served over HTTPS (not a local production build). */
const httpsProduction = () => isProduction() && isSecureOrigin();

/**
 * HSTS, decided when called: the app's server (server.ts) adds it to every response at run time,
 * since next.config.ts headers are frozen at build time.
 */
export function strictTransportSecurity(): string | null {
  return httpsProduction() ? "max-age=63072000; includeSubDomains; preload" : null;
}

export function staticSecurityHeaders(): { key: string; value: string }[] {
  const headers = [
    { key: "X-Content-Type-Options", value: "nosniff" },
    { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
    { key: "X-Frame-Options", value: "DENY" },
    { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(self), payment=()" },
    { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
  ];
  const hsts = strictTransportSecurity();
  if (hsts) headers.push({ key: "Strict-Transport-Security", value: hsts });
  return headers;
}

export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

/** Scripts run only with this response's nonce (and what they load); never inline ones without it. */
export function contentSecurityPolicy(nonce: string): string {
  const devEval = isProduction() ? "" : " 'unsafe-eval'";
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${devEval}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "font-src 'self' data:",
    // Spelled out: browsers disagree on whether 'strict-dynamic' covers workers (the photo compression worker).
    "worker-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(httpsProduction() ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}

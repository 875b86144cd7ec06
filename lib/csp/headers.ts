import { isPreview, isSecureOrigin } from "../env";
import { THEME_INIT_SCRIPT_HASH } from "./theme-script";

/**
 * Security headers, in one place: next.config.ts sets the static ones, middleware.ts the CSP, and
 * the build's routes the CSP of the pages the guard skips (lib/csp/static-pages). Node runtime.
 */

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
    // The camera for this origin only: the verification selfie (lib/verification) is taken in the page.
    { key: "Permissions-Policy", value: "camera=(self), microphone=(), geolocation=(self), payment=()" },
    { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
  ];
  const hsts = strictTransportSecurity();
  if (hsts) headers.push({ key: "Strict-Transport-Security", value: hsts });
  return headers;
}

/**
 * What a page's answer carries besides the static headers: its policy, and on a preview the word
 * to search engines that it is for its reviewers only.
 */
export function pageHeaders(contentSecurityPolicy: string): { key: string; value: string }[] {
  const headers = [{ key: "Content-Security-Policy", value: contentSecurityPolicy }];
  if (isPreview()) headers.push({ key: "X-Robots-Tag", value: "noindex, nofollow" });
  return headers;
}

export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

/** Every directive but script-src, which says how this response's scripts are allowed. */
function policy(scriptSrc: string): string {
  return [
    "default-src 'self'",
    `script-src ${scriptSrc}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "font-src 'self' data:",
    // Spelled out: browsers disagree on whether 'strict-dynamic' covers workers (the photo compression worker).
    "worker-src 'self'",
    // The directory's Google map talks to Google's map servers; the offline map needs nothing beyond this origin.
    `connect-src 'self'${process.env.NEXT_PUBLIC_GOOGLE_MAPS_BROWSER_KEY ? " https://*.googleapis.com https://*.gstatic.com" : ""}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(httpsProduction() ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}

const devEval = () => (isProduction() ? "" : " 'unsafe-eval'");

/**
 * Pages rendered per request: scripts run only with this response's nonce (and what they load),
 * plus the theme's fixed first-paint script by its hash; never inline ones without either.
 */
export function contentSecurityPolicy(nonce: string): string {
  return policy(`'self' 'nonce-${nonce}' ${THEME_INIT_SCRIPT_HASH} 'strict-dynamic'${devEval()}`);
}

/**
 * A page the guard skips, before the build knows its inline scripts (lib/csp/static-pages
 * unguardedPageRules): in production only the theme script may run, so a rule the build did not
 * fill in shows a page that does not run, never one without a policy; under `next dev`, which
 * hashes nothing and gives no nonce without the guard, inline scripts run as they are.
 */
export function unhashedPageContentSecurityPolicy(): string {
  return isProduction() ? prerenderedPageContentSecurityPolicy([]) : policy(`'self' 'unsafe-inline'${devEval()}`);
}

/**
 * A prerendered page (the same bytes for everyone, so no nonce can be in it): its inline scripts
 * run only by their hashes (lib/csp/static-pages.ts reads them from the built HTML), its script
 * files only from this origin. No 'strict-dynamic', which would ignore 'self'; no 'unsafe-inline'.
 */
export function prerenderedPageContentSecurityPolicy(inlineScriptHashes: readonly string[]): string {
  const hashes = [...new Set([THEME_INIT_SCRIPT_HASH, ...inlineScriptHashes])];
  return policy(`'self' ${hashes.join(" ")}${devEval()}`);
}

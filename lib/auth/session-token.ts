// Relative: next.config.ts loads this file (through lib/csp/static-pages), and its loader knows no `@/`.
import { isSecureOrigin } from "../env";

/**
 * What the browser session cookie (an encrypted JWT) carries. Edge-safe: middleware reads it.
 * The flags let the route guard decide without a database; pages re-check against the rows.
 */
export type SessionClaims = {
  sub: string;
  /** The session row; revoking it ends the session. */
  sid: string;
  emailVerified: boolean;
  profileComplete: boolean;
  isPartnerB: boolean;
};

export const BROWSER_SESSION_SECONDS = 14 * 24 * 60 * 60;

/** Auth.js names the cookie this way (the first over HTTPS) and uses the name as the encryption salt. */
export const SESSION_COOKIE_NAMES = ["__Secure-authjs.session-token", "authjs.session-token"] as const;
export const sessionCookieName = () => SESSION_COOKIE_NAMES[isSecureOrigin() ? 0 : 1];

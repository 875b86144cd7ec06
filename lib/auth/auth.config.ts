import type { NextAuthConfig } from "next-auth";
import { isSecureOrigin } from "@/lib/env";
import { cachedDecode } from "./jwt-cache";
import { BROWSER_SESSION_SECONDS, sessionCookieName, type SessionClaims } from "./session-token";

/**
 * The Edge-safe half of Auth.js: no database, no password hashing. middleware.ts builds its
 * `auth` from this alone; lib/auth/auth.ts adds the credentials provider and the revocation check.
 */
export const authConfig = {
  trustHost: true,
  pages: { signIn: "/login" },
  providers: [],
  session: { strategy: "jwt", maxAge: BROWSER_SESSION_SECONDS },
  // The guard (middleware) and every auth() read the cookie: decode it once per token and process.
  jwt: { decode: cachedDecode },
  cookies: {
    sessionToken: {
      name: sessionCookieName(),
      options: { httpOnly: true, sameSite: "lax", path: "/", secure: isSecureOrigin() },
    },
  },
  callbacks: {
    session({ session, token }) {
      const claims = token as unknown as Partial<SessionClaims>;
      return {
        ...session,
        user: { ...session.user, id: claims.sub ?? "" },
        claims: claims as SessionClaims,
      };
    },
  },
} satisfies NextAuthConfig;

declare module "next-auth" {
  interface Session {
    claims: SessionClaims;
  }
}

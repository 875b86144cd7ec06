import "server-only";
import NextAuth, { CredentialsSignin } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { getDb } from "@/db/client";
import { AppError } from "@/lib/errors";
import { clientAddress } from "@/lib/http/client-address";
import { isSecureOrigin } from "@/lib/env";
import { deviceTokenOf, rememberDevice } from "./device-cookie";
import { authenticate } from "./credentials";
import { INVALID_CREDENTIALS_MESSAGE } from "./rules";
import { signInSchema } from "./schemas";
import { cachedDecode } from "./jwt-cache";
import { BROWSER_SESSION_SECONDS, sessionCookieName, type SessionClaims } from "./session-token";
import { activeSessionUser, createSession } from "./sessions";
import { accountFlags } from "./users";
import { describeError } from "@/lib/log";

/** A refused sign-in, carrying the domain error so the login form can show its message. */
export class SignInRefused extends CredentialsSignin {
  constructor(readonly appError: AppError) {
    super(appError.message);
    this.code = appError.code;
  }
}

async function claimsFor(userId: string, sid: string): Promise<SessionClaims | null> {
  const flags = await accountFlags(await getDb(), userId);
  return flags && { sub: userId, sid, ...flags };
}

/**
 * Auth.js signs in (credentials), re-issues the cookie when claims change (unstable_update) and
 * reads it for server actions. The route guard reads the cookie itself (lib/auth/guard-session).
 */
export const { auth, signIn, signOut, unstable_update } = NextAuth({
  trustHost: true,
  pages: { signIn: "/login" },
  session: { strategy: "jwt", maxAge: BROWSER_SESSION_SECONDS },
  // Every auth() and the guard read the cookie: decode it once per token and process.
  jwt: { decode: cachedDecode },
  cookies: {
    sessionToken: {
      name: sessionCookieName(),
      options: { httpOnly: true, sameSite: "lax", path: "/", secure: isSecureOrigin() },
    },
  },
  logger: {
    error(error) {
      if (error instanceof CredentialsSignin) return;
      console.error("[auth]", describeError(error));
    },
  },
  providers: [
    Credentials({
      credentials: { email: {}, password: {} },
      async authorize(raw, request) {
        const parsed = signInSchema.safeParse(raw);
        if (!parsed.success) throw new SignInRefused(new AppError("INVALID_CREDENTIALS", INVALID_CREDENTIALS_MESSAGE));
        const db = await getDb();
        try {
          const user = await authenticate(db, parsed.data, {
            clientAddress: clientAddress(request.headers),
            deviceToken: deviceTokenOf(request.headers),
          });
          const sid = await createSession(db, user.id, "browser", { userAgent: request.headers.get("user-agent") }, user.credential);
          await rememberDevice(user);
          return { id: user.id, email: user.email, sid };
        } catch (error) {
          if (error instanceof AppError) throw new SignInRefused(error);
          throw error;
        }
      },
    }),
  ],
  callbacks: {
    session({ session, token }) {
      const claims = token as unknown as Partial<SessionClaims>;
      return {
        ...session,
        user: { ...session.user, id: claims.sub ?? "" },
        claims: claims as SessionClaims,
      };
    },
    async jwt({ token, user, trigger }) {
      // Sign-in: a new session row, hence a new session id, every time.
      if (user) return (await claimsFor(user.id!, (user as { sid: string }).sid)) ?? null;
      const claims = token as unknown as Partial<SessionClaims>;
      if (!claims.sub || !claims.sid) return null;
      // Every later read: the session must still be live (sign-out and password reset revoke it).
      if ((await activeSessionUser(await getDb(), claims.sid)) !== claims.sub) return null;
      // An update (after onboarding or joining a couple) re-reads the flags the route guard uses.
      if (trigger === "update") return { ...token, ...(await claimsFor(claims.sub, claims.sid)) };
      return token;
    },
  },
});

declare module "next-auth" {
  interface Session {
    claims: SessionClaims;
  }
}

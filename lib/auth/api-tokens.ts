import "server-only";
import { and, eq, gt } from "drizzle-orm";
import { encode } from "next-auth/jwt";
import type { Db } from "@/db/client";
import { transaction } from "@/db/transaction";
import { refreshTokens, sessions, users } from "@/db/schema";
import { authSecret } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { LIMITS, consumeLimit, limitError } from "@/lib/rate-limit";
import { cachedDecode } from "./jwt-cache";
import { hashToken, newSecretToken } from "./secrets";
import { createSession, revokeSession, API_SESSION_SECONDS, type SessionClient } from "./sessions";

export const ACCESS_TOKEN_SECONDS = 15 * 60;
const ACCESS_TOKEN_SALT = "api-access-token";

/** The spec's session shape, returned to non-browser clients. */
export type ApiSession = {
  access_token: string;
  refresh_token: string;
  expires_at: number;
  user: { id: string; email: string; email_confirmed_at: string | null };
};

type SessionRef = { id: string; expiresAt: Date };

/** A new token pair of an API session (opened, rotated, or replacing the caller's at a password change). */
export async function issueTokens(
  db: Db,
  session: SessionRef,
  user: { id: string; email: string; emailVerifiedAt: Date | null },
): Promise<ApiSession> {
  const refreshToken = newSecretToken();
  const sessionId = session.id;
  // A refresh token never outlives its session.
  await db.insert(refreshTokens).values({ sessionId, tokenHash: hashToken(refreshToken), expiresAt: session.expiresAt });
  const accessToken = await encode({
    token: { sub: user.id, sid: sessionId },
    secret: authSecret(),
    salt: ACCESS_TOKEN_SALT,
    maxAge: ACCESS_TOKEN_SECONDS,
  });
  return {
    access_token: accessToken,
    refresh_token: refreshToken,
    expires_at: Math.floor(Date.now() / 1000) + ACCESS_TOKEN_SECONDS,
    user: { id: user.id, email: user.email, email_confirmed_at: user.emailVerifiedAt?.toISOString() ?? null },
  };
}

/** Opens an API session for an already authenticated user (with the sign-in's `credential`: sessions.ts openSession). */
export async function startApiSession(
  db: Db,
  user: { id: string; email: string; emailVerifiedAt: Date | null; credential?: string },
  client: SessionClient = {},
): Promise<ApiSession> {
  return transaction(db, async (tx) => {
    const id = await createSession(tx, user.id, "api", client, user.credential);
    return issueTokens(tx, { id, expiresAt: new Date(Date.now() + API_SESSION_SECONDS * 1000) }, user);
  });
}

const INVALID_REFRESH = "Invalid refresh token. Please sign in again.";

/**
 * How long a used refresh token is still traded, for the same session, while the session has
 * rotated no token since (OAuth 2.0 Security BCP's reuse detection with Auth0's leeway, Supabase's
 * reuse interval). The spec's client refreshes on every TOKEN_EXPIRED and retries a refresh that
 * failed on the network: two calls that expire together, or a retried refresh whose answer was
 * lost, present one token twice within moments, and must not sign the person out.
 * Each such trade gets a pair of its own beside the first (the older answer may be the one the
 * client keeps, so neither is ended): a thief who uses a stolen token within these seconds keeps
 * a working pair undetected, the price every leeway pays; later, or once the chain has moved on,
 * a reuse is a replay and ends the session as before.
 */
export const REFRESH_REUSE_GRACE_MS = 10_000;

/**
 * Trades a refresh token for a new pair. Each refresh token works once: presenting a used one
 * (outside REFRESH_REUSE_GRACE_MS) means it was stolen or replayed, so the whole session (the token
 * family) is revoked. At most LIMITS.refreshPerSession trades a session an hour (429 past it).
 */
export async function rotateRefreshToken(db: Db, refreshToken: string): Promise<ApiSession> {
  const outcome = await transaction(db, async (tx) => {
    const [row] = await tx
      .select({
        id: refreshTokens.id,
        sessionId: refreshTokens.sessionId,
        usedAt: refreshTokens.usedAt,
        expiresAt: refreshTokens.expiresAt,
        revokedAt: sessions.revokedAt,
        sessionExpiresAt: sessions.expiresAt,
        userId: users.id,
        email: users.email,
        emailVerifiedAt: users.emailVerifiedAt,
      })
      .from(refreshTokens)
      .innerJoin(sessions, eq(sessions.id, refreshTokens.sessionId))
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(eq(refreshTokens.tokenHash, hashToken(refreshToken)))
      .for("update", { of: refreshTokens });
    if (!row || row.revokedAt) return { reused: false, session: null };
    if (row.usedAt && !(await withinReuseGrace(tx, row.sessionId, row.usedAt))) {
      await revokeSession(tx, row.sessionId);
      return { reused: true, session: null };
    }
    if (Math.min(row.expiresAt.getTime(), row.sessionExpiresAt.getTime()) <= Date.now()) return { reused: false, session: null };
    // Every trade stores a token the session keeps: a client trading in a loop is refused, nothing used up.
    const limit = await consumeLimit(tx, LIMITS.refreshPerSession, row.sessionId);
    if (!limit.allowed) throw limitError(LIMITS.refreshPerSession, limit.retryAfterSeconds);
    // A trade within the grace leaves usedAt as it was: the window runs from the first trade.
    if (!row.usedAt) await tx.update(refreshTokens).set({ usedAt: new Date() }).where(eq(refreshTokens.id, row.id));
    return {
      reused: false,
      session: await issueTokens(
        tx,
        { id: row.sessionId, expiresAt: row.sessionExpiresAt },
        { id: row.userId, email: row.email, emailVerifiedAt: row.emailVerifiedAt },
      ),
    };
  });
  // The revocation above must commit, so the error is thrown only after the transaction.
  if (!outcome.session)
    throw new AppError("SESSION_EXPIRED", outcome.reused ? "Refresh token reuse detected. Please sign in again." : INVALID_REFRESH);
  return outcome.session;
}

/** A token used at `usedAt` may be traded again: within the grace, and no token of its session rotated since. */
async function withinReuseGrace(tx: Db, sessionId: string, usedAt: Date): Promise<boolean> {
  if (Date.now() - usedAt.getTime() > REFRESH_REUSE_GRACE_MS) return false;
  const [later] = await tx
    .select({ id: refreshTokens.id })
    .from(refreshTokens)
    .where(and(eq(refreshTokens.sessionId, sessionId), gt(refreshTokens.usedAt, usedAt)))
    .limit(1);
  return !later;
}

/** Reads a bearer access token; says TOKEN_EXPIRED when it is only too old, so clients refresh. */
export async function readAccessToken(token: string): Promise<{ userId: string; sessionId: string }> {
  try {
    const payload = await cachedDecode({ token, secret: authSecret(), salt: ACCESS_TOKEN_SALT });
    if (typeof payload?.sub === "string" && typeof payload.sid === "string") return { userId: payload.sub, sessionId: payload.sid };
  } catch (error) {
    if ((error as { code?: string }).code === "ERR_JWT_EXPIRED") throw new AppError("TOKEN_EXPIRED", "Access token expired");
  }
  throw new AppError("UNAUTHENTICATED", "Authentication token invalid");
}

import { eq, sql } from "drizzle-orm";
import { encode } from "next-auth/jwt";
import { beforeEach, describe, expect, it } from "vitest";
import { POST as logout } from "@/app/api/auth/logout/route";
import { GET as me } from "@/app/api/v2/auth/me/route";
import { getDb } from "@/db/client";
import { refreshTokens, sessions } from "@/db/schema";
import { REFRESH_REUSE_GRACE_MS } from "@/lib/auth/api-tokens";
import { LIMITS } from "@/lib/rate-limit";
import { createSession } from "@/lib/auth/sessions";
import { PASSWORD, browserSession, call, createUser, freshAddress } from "../support/api";
import { accepted, ageRateLimitHits, apiSession, bearer, meStatus, passwordGrant, refreshGrant, sessionOf } from "../support/flows";

const meCall = (headers: Record<string, string>) => call(me, "GET", "/api/v2/auth/me", { headers });

/** Moves the use of a (used) refresh token, and of every later use in its session, to just before the reuse grace window. */
async function usedBeforeTheGrace(refreshToken: string): Promise<void> {
  const db = await getDb();
  const back = sql`${refreshTokens.usedAt} - make_interval(secs => ${(REFRESH_REUSE_GRACE_MS + 1000) / 1000})`;
  await db
    .update(refreshTokens)
    .set({ usedAt: back })
    .where(eq(refreshTokens.sessionId, await sessionOf(refreshToken)));
}

describe("POST /api/auth/token, password grant", () => {
  it("answers the spec's session shape for a verified account", async () => {
    const user = await createUser();
    const res = await passwordGrant(user.email);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.json).toEqual({
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      expires_at: expect.any(Number),
      user: { id: user.id, email: user.email, email_confirmed_at: user.emailVerifiedAt!.toISOString() },
    });
    const now = Date.now() / 1000;
    expect(res.json.expires_at).toBeGreaterThan(now + 14 * 60);
    expect(res.json.expires_at).toBeLessThanOrEqual(now + 15 * 60 + 1);
    expect(accepted(await meStatus(res.json.access_token))).toBe(true);
  });

  it("accepts the e-mail in another case and with spaces around it", async () => {
    const user = await createUser();
    expect((await passwordGrant(` ${user.email.toUpperCase()} `)).status).toBe(200);
  });

  it("refuses a wrong password with 401 INVALID_CREDENTIALS and the spec's message", async () => {
    const user = await createUser();
    const res = await passwordGrant(user.email, "Wrong-Horse7!");
    expect(res.status).toBe(401);
    expect(res.json).toEqual({ error: { code: "INVALID_CREDENTIALS", message: "Invalid email or password. Please try again." } });
  });

  it("answers an unknown e-mail exactly like a wrong password", async () => {
    const user = await createUser();
    const wrong = await passwordGrant(user.email, "Wrong-Horse7!");
    const unknown = await passwordGrant("nobody-at-all@example.com", PASSWORD);
    expect(unknown.status).toBe(wrong.status);
    expect(unknown.json).toEqual(wrong.json);
  });

  it("says EMAIL_NOT_CONFIRMED (403) to an unverified account only when the password is right", async () => {
    const user = await createUser({ emailVerifiedAt: null });
    const right = await passwordGrant(user.email);
    expect(right.status).toBe(403);
    expect(right.json.error).toEqual({
      code: "EMAIL_NOT_CONFIRMED",
      message: "Please verify your email address before logging in. Check your inbox for the verification link.",
    });
    const wrong = await passwordGrant(user.email, "Wrong-Horse7!");
    expect(wrong.status).toBe(401);
    expect(wrong.json.error.code).toBe("INVALID_CREDENTIALS");
  });

  it("refuses a malformed request with 400", async () => {
    const missing = await call((await import("@/app/api/auth/token/route")).POST, "POST", "/api/auth/token", {
      body: { grant_type: "password" },
    });
    expect(missing.status).toBe(400);
    const unknownGrant = await call((await import("@/app/api/auth/token/route")).POST, "POST", "/api/auth/token", {
      body: { grant_type: "client_credentials" },
    });
    expect(unknownGrant.status).toBe(400);
  });

  it("stores only a hash of the refresh token", async () => {
    const user = await createUser();
    const session = await apiSession(user.email);
    const db = await getDb();
    const rows = await db.select().from(refreshTokens);
    expect(rows.some((r) => r.tokenHash === session.refresh_token)).toBe(false);
    expect(JSON.stringify(rows)).not.toContain(session.refresh_token);
  });
});

describe("POST /api/auth/token, refresh grant", () => {
  it("trades a refresh token for a new pair that works", async () => {
    const user = await createUser();
    const first = await apiSession(user.email);
    const res = await refreshGrant(first.refresh_token);
    expect(res.status).toBe(200);
    expect(res.json.refresh_token).not.toBe(first.refresh_token);
    expect(res.json.access_token).not.toBe(first.access_token);
    expect(res.json.user).toEqual(first.user);
    expect(accepted(await meStatus(res.json.access_token))).toBe(true);
    expect((await refreshGrant(res.json.refresh_token)).status).toBe(200);
  });

  it("limits a session's trades: a client refreshing in a loop gets 429 with Retry-After past the hour's limit, its token kept for later", async () => {
    const user = await createUser();
    let current = (await apiSession(user.email)).refresh_token;
    const sessionId = await sessionOf(current);
    for (let trade = 0; trade < LIMITS.refreshPerSession.limit; trade++) {
      const res = await refreshGrant(current);
      expect(res.status).toBe(200);
      current = res.json.refresh_token;
    }
    const refused = await refreshGrant(current);
    expect(refused.status).toBe(429);
    expect(refused.json.error.code).toBe("RATE_LIMITED");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // The session's token family stops growing: the refused call stored no token.
    const db = await getDb();
    const family = await db.select({ id: refreshTokens.id }).from(refreshTokens).where(eq(refreshTokens.sessionId, sessionId));
    expect(family).toHaveLength(LIMITS.refreshPerSession.limit + 1);
    // Nothing was used up: once the hour has passed, the same token trades.
    await ageRateLimitHits(sessionId, LIMITS.refreshPerSession.windowSeconds + 1, LIMITS.refreshPerSession.bucket);
    expect((await refreshGrant(current)).status).toBe(200);
  });

  it("refuses to refresh once the session itself has expired", async () => {
    const user = await createUser();
    const first = await apiSession(user.email);
    const db = await getDb();
    await db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.userId, user.id));
    const res = await refreshGrant(first.refresh_token);
    expect(res.status).toBe(401);
    expect(res.json.error.code).toBe("SESSION_EXPIRED");
  });

  it("refuses a reused refresh token and revokes its whole family: the newest refresh and access tokens stop working", async () => {
    const user = await createUser();
    const first = await apiSession(user.email);
    const second = (await refreshGrant(first.refresh_token)).json;
    const third = (await refreshGrant(second.refresh_token)).json;
    expect(accepted(await meStatus(third.access_token))).toBe(true);

    const replay = await refreshGrant(first.refresh_token);
    expect(replay.status).toBe(401);
    expect(replay.json.error).toEqual({ code: "SESSION_EXPIRED", message: "Refresh token reuse detected. Please sign in again." });

    expect((await refreshGrant(third.refresh_token)).status).toBe(401);
    const meAfter = await meCall(bearer(third.access_token));
    expect(meAfter.status).toBe(401);
    expect(meAfter.json.error.code).toBe("SESSION_EXPIRED");
  });

  it("revokes only the family of the reused token, not the user's other sessions", async () => {
    const user = await createUser();
    const stolen = await apiSession(user.email);
    const other = await apiSession(user.email);
    await refreshGrant(stolen.refresh_token);
    await usedBeforeTheGrace(stolen.refresh_token);
    expect((await refreshGrant(stolen.refresh_token)).status).toBe(401);
    expect(accepted(await meStatus(other.access_token))).toBe(true);
    expect((await refreshGrant(other.refresh_token)).status).toBe(200);
  });

  it("answers two simultaneous refreshes of one token with a working pair each, and the session stays", async () => {
    const user = await createUser();
    const first = await apiSession(user.email);
    const results = await Promise.all([refreshGrant(first.refresh_token), refreshGrant(first.refresh_token)]);
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    for (const { json } of results) {
      expect(accepted(await meStatus(json.access_token))).toBe(true);
      expect((await refreshGrant(json.refresh_token)).status).toBe(200);
    }
    const db = await getDb();
    const [row] = await db
      .select({ revokedAt: sessions.revokedAt })
      .from(sessions)
      .where(eq(sessions.id, await sessionOf(first.refresh_token)));
    expect(row!.revokedAt).toBeNull();
  });

  it("answers a retried refresh whose first answer was lost", async () => {
    const user = await createUser();
    const first = await apiSession(user.email);
    expect((await refreshGrant(first.refresh_token)).status).toBe(200);
    const retried = await refreshGrant(first.refresh_token);
    expect(retried.status).toBe(200);
    expect(accepted(await meStatus(retried.json.access_token))).toBe(true);
  });

  it("still revokes the session when a used token comes back after the grace window", async () => {
    const user = await createUser();
    const first = await apiSession(user.email);
    const second = (await refreshGrant(first.refresh_token)).json;
    await usedBeforeTheGrace(first.refresh_token);
    const replay = await refreshGrant(first.refresh_token);
    expect(replay.status).toBe(401);
    expect(replay.json.error).toEqual({ code: "SESSION_EXPIRED", message: "Refresh token reuse detected. Please sign in again." });
    expect((await refreshGrant(second.refresh_token)).status).toBe(401);
    expect((await meCall(bearer(second.access_token))).status).toBe(401);
  });

  it("refuses an unknown and an expired refresh token", async () => {
    const user = await createUser();
    expect((await refreshGrant("not-a-real-refresh-token")).status).toBe(401);
    const session = await apiSession(user.email);
    const db = await getDb();
    await db.update(refreshTokens).set({ expiresAt: new Date(Date.now() - 1000) });
    expect((await refreshGrant(session.refresh_token)).status).toBe(401);
  });
});

describe("sign-in lockout", () => {
  /** The caller's one address for the test: the lock is per account and address together. */
  let grant: (email: string, password?: string) => ReturnType<typeof passwordGrant>;
  beforeEach(() => {
    const address = freshAddress();
    grant = (email, password = PASSWORD) => passwordGrant(email, password, { "x-forwarded-for": address });
  });

  it("locks the account after 5 wrong passwords: even the right one then gets 429 ACCOUNT_LOCKED with Retry-After", async () => {
    const user = await createUser();
    for (let i = 0; i < 5; i++) expect((await grant(user.email, `Wrong-${i}`)).status).toBe(401);
    const res = await grant(user.email);
    expect(res.status).toBe(429);
    expect(res.json.error.code).toBe("ACCOUNT_LOCKED");
    expect(res.json.error.message).toBe("Too many sign-in attempts. Please try again in 15 minutes.");
    const retryAfter = Number(res.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(14 * 60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
  });

  it("locks the account at the failing address only: strangers elsewhere cannot lock the owner out", async () => {
    const user = await createUser();
    for (let i = 0; i < 5; i++) expect((await grant(user.email, `Wrong-${i}`)).status).toBe(401);
    expect((await grant(user.email)).status).toBe(429);
    // The owner, at their own address; passwordGrant gives every other request its own address.
    expect((await passwordGrant(user.email)).status).toBe(200);
    // Five strangers at five addresses, one wrong password each, lock nobody.
    for (let i = 0; i < 5; i++) expect((await passwordGrant(user.email, `Wrong-${i}`)).status).toBe(401);
    expect((await passwordGrant(user.email)).status).toBe(200);
  });

  it("does not lock after 4 wrong passwords", async () => {
    const user = await createUser();
    for (let i = 0; i < 4; i++) await grant(user.email, `Wrong-${i}`);
    expect((await grant(user.email)).status).toBe(200);
  });

  it("resets the count after a successful sign-in before the 5th failure", async () => {
    const user = await createUser();
    for (let i = 0; i < 4; i++) await grant(user.email, `Wrong-${i}`);
    expect((await grant(user.email)).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await grant(user.email, `Wrong-${i}`)).status).toBe(401);
    expect((await grant(user.email)).status).toBe(200);
  });

  it("counts at most 5 wrong passwords even when many arrive at once", async () => {
    const user = await createUser();
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => grant(user.email, `Wrong-${i}`)));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);
    expect((await grant(user.email)).status).toBe(429);
  });

  it("never locks an account because of simultaneous correct sign-ins", async () => {
    const user = await createUser();
    const results = await Promise.all(Array.from({ length: 8 }, () => grant(user.email)));
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(200));
  });

  it("limits wrong passwords from one address across accounts (50 per 15 minutes)", async () => {
    const address = freshAddress();
    const accounts = await Promise.all(Array.from({ length: 13 }, () => createUser()));
    let attempts = 0;
    for (const account of accounts) {
      for (let i = 0; i < 4 && attempts < 50; i++, attempts++) {
        expect((await passwordGrant(account.email, `Wrong-${i}`, { "x-forwarded-for": address })).status).toBe(401);
      }
    }
    const blocked = await passwordGrant(accounts[12]!.email, PASSWORD, { "x-forwarded-for": address });
    expect(blocked.status).toBe(429);
    expect((await passwordGrant(accounts[12]!.email)).status).toBe(200);
  });
});

describe("access tokens", () => {
  it("answers TOKEN_EXPIRED (401) to an expired access token, so clients refresh", async () => {
    const user = await createUser();
    const db = await getDb();
    const sid = await createSession(db, user.id, "api");
    const expired = await encode({ token: { sub: user.id, sid }, secret: process.env.AUTH_SECRET!, salt: "api-access-token", maxAge: -60 });
    const res = await meCall(bearer(expired));
    expect(res.status).toBe(401);
    expect(res.json.error.code).toBe("TOKEN_EXPIRED");
  });

  it("refuses a token encrypted for another purpose (the session cookie) as a bearer token", async () => {
    const user = await createUser();
    const { cookie } = await browserSession(user.id);
    const cookieValue = cookie.split("=").slice(1).join("=");
    const res = await meCall(bearer(cookieValue));
    expect(res.status).toBe(401);
    expect(res.json.error.code).toBe("UNAUTHENTICATED");
  });

  it("refuses a token made with another secret", async () => {
    const user = await createUser();
    const db = await getDb();
    const sid = await createSession(db, user.id, "api");
    const forged = await encode({
      token: { sub: user.id, sid },
      secret: "another-secret-another-secret-0123456789",
      salt: "api-access-token",
      maxAge: 600,
    });
    const res = await meCall(bearer(forged));
    expect(res.status).toBe(401);
    expect(res.json.error.code).toBe("UNAUTHENTICATED");
  });

  it("refuses a token whose session belongs to another user", async () => {
    const victim = await createUser();
    const attacker = await createUser();
    const db = await getDb();
    const attackerSid = await createSession(db, attacker.id, "api");
    // Only possible with the secret; proves the session row must match the token's user.
    const mixed = await encode({
      token: { sub: victim.id, sid: attackerSid },
      secret: process.env.AUTH_SECRET!,
      salt: "api-access-token",
      maxAge: 600,
    });
    expect((await meCall(bearer(mixed))).status).toBe(401);
  });
});

describe("POST /api/auth/logout", () => {
  it("revokes the session: its access token then gets 401 SESSION_EXPIRED and its refresh token fails", async () => {
    const user = await createUser();
    const session = await apiSession(user.email);
    const res = await call(logout, "POST", "/api/auth/logout", { headers: bearer(session.access_token) });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ data: { signedOut: true } });
    const after = await meCall(bearer(session.access_token));
    expect(after.status).toBe(401);
    expect(after.json.error.code).toBe("SESSION_EXPIRED");
    expect((await refreshGrant(session.refresh_token)).status).toBe(401);
  });

  it("ends only the caller's session", async () => {
    const user = await createUser();
    const a = await apiSession(user.email);
    const b = await apiSession(user.email);
    await call(logout, "POST", "/api/auth/logout", { headers: bearer(a.access_token) });
    expect(accepted(await meStatus(b.access_token))).toBe(true);
  });

  it("signs a browser session out with its CSRF token, and refuses without it", async () => {
    const user = await createUser();
    const session = await browserSession(user.id);
    const refused = await call(logout, "POST", "/api/auth/logout", { headers: { cookie: session.cookie } });
    expect(refused.status).toBe(403);
    expect(refused.json.error.code).toBe("CSRF_VALIDATION_FAILED");
    const db = await getDb();
    expect((await db.select().from(sessions).where(eq(sessions.id, session.sid)))[0]!.revokedAt).toBeNull();
    const ok = await call(logout, "POST", "/api/auth/logout", { headers: { cookie: session.cookie, "x-csrf-token": session.csrf } });
    expect(ok.status).toBe(200);
    expect((await db.select().from(sessions).where(eq(sessions.id, session.sid)))[0]!.revokedAt).toBeInstanceOf(Date);
  });

  it("answers 401 without a session", async () => {
    const res = await call(logout, "POST", "/api/auth/logout");
    expect(res.status).toBe(401);
  });
});

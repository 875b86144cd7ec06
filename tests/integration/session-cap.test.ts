import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as me } from "@/app/api/v2/auth/me/route";
import { getDb } from "@/db/client";
import { refreshTokens, sessions } from "@/db/schema";
import { hashToken } from "@/lib/auth/secrets";
import { SESSIONS_PER_PERSON_MAX, activeSessionUsers } from "@/lib/auth/sessions";
import { call, createUser } from "../support/api";
import { apiSession, bearer, refreshGrant } from "../support/flows";
import { whileHeld } from "../support/lock-race";

/** /me answers 409 to a user without a couple: that still proves the token was accepted. */
const meStatus = async (accessToken: string) => (await call(me, "GET", "/api/v2/auth/me", { headers: bearer(accessToken) })).status;
const accepted = (status: number) => status === 200 || status === 409;

async function liveSessionCount(userId: string): Promise<number> {
  const db = await getDb();
  const rows = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, new Date())));
  return rows.length;
}

async function sessionOf(refreshToken: string): Promise<string> {
  const db = await getDb();
  const [row] = await db
    .select({ sessionId: refreshTokens.sessionId })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, hashToken(refreshToken)));
  return row!.sessionId;
}

async function signInTimes(email: string, times: number) {
  const signedIn = [];
  for (let i = 0; i < times; i++) signedIn.push(await apiSession(email));
  return signedIn;
}

describe("SESSIONS_PER_PERSON_MAX", () => {
  it("keeps a person's live sessions at the cap: the oldest end as a sign-out ends them, the newest work", async () => {
    const user = await createUser();
    const extra = 3;
    const signedIn = await signInTimes(user.email, SESSIONS_PER_PERSON_MAX + extra);
    expect(await liveSessionCount(user.id)).toBe(SESSIONS_PER_PERSON_MAX);

    const ended = signedIn.slice(0, extra);
    for (const session of ended) {
      expect(await meStatus(session.access_token)).toBe(401);
      expect((await refreshGrant(session.refresh_token)).status).toBe(401);
    }
    // The live streams' heartbeat (and the push subscriptions' filter) read the same rows: they end too.
    const db = await getDb();
    const endedIds = await Promise.all(ended.map((session) => sessionOf(session.refresh_token)));
    expect((await activeSessionUsers(db, endedIds)).size).toBe(0);

    for (const session of [signedIn[extra]!, signedIn.at(-1)!]) expect(accepted(await meStatus(session.access_token))).toBe(true);
    expect((await refreshGrant(signedIn.at(-1)!.refresh_token)).status).toBe(200);
  });

  it("ends the least recently used session, not the first opened", async () => {
    const user = await createUser();
    const signedIn = await signInTimes(user.email, SESSIONS_PER_PERSON_MAX);
    const db = await getDb();
    const [first, second] = signedIn;
    // The first session was used just now (as touchSession records a use).
    await db
      .update(sessions)
      .set({ lastSeenAt: sql`now() + interval '1 second'` })
      .where(eq(sessions.id, await sessionOf(first!.refresh_token)));
    const newest = await apiSession(user.email);
    expect(await liveSessionCount(user.id)).toBe(SESSIONS_PER_PERSON_MAX);
    expect(accepted(await meStatus(first!.access_token))).toBe(true);
    expect(await meStatus(second!.access_token)).toBe(401);
    expect(accepted(await meStatus(newest.access_token))).toBe(true);
  });

  it("holds the cap when two sign-ins arrive at once", async () => {
    const user = await createUser();
    const signedIn = await signInTimes(user.email, SESSIONS_PER_PERSON_MAX);
    const oldest = await sessionOf(signedIn[0]!.refresh_token);
    // Both sign-ins reach the ending of the oldest session together, held until both wait.
    const together = await whileHeld(
      (tx) => tx`select 1 from sessions where id = ${oldest} for update`,
      [() => apiSession(user.email), () => apiSession(user.email)],
    );
    expect(await liveSessionCount(user.id)).toBe(SESSIONS_PER_PERSON_MAX);
    for (const session of together) expect(accepted(await meStatus(session.access_token))).toBe(true);
  });

  it("never ends another person's sessions", async () => {
    const user = await createUser();
    const other = await createUser();
    const theirs = await apiSession(other.email);
    await signInTimes(user.email, SESSIONS_PER_PERSON_MAX + 1);
    expect(accepted(await meStatus(theirs.access_token))).toBe(true);
  });
});

import { and, eq, gt, isNull, lt, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { pushSubscriptions, refreshTokens, sessions } from "@/db/schema";
import {
  ENDED_SESSION_DROPS_PER_RUN,
  ENDED_SESSIONS_KEPT_DAYS,
  SESSIONS_PER_PERSON_MAX,
  activeSessionUser,
  activeSessionUsers,
  dropEndedSessions,
} from "@/lib/auth/sessions";
import { runDueWork } from "@/lib/scheduled/service";
import { createUser } from "../support/api";
import { accepted, apiSession, meStatus, refreshGrant, sessionOf } from "../support/flows";
import { whileHeld } from "../support/lock-race";
import { queryPlan, wholeScans } from "../support/query-plan";

async function liveSessionCount(userId: string): Promise<number> {
  const db = await getDb();
  const rows = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, new Date())));
  return rows.length;
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

const DAY = 86_400_000;
const daysFromNow = (days: number) => new Date(Date.now() + days * DAY);

describe("ended sessions", () => {
  it("are deleted ENDED_SESSIONS_KEPT_DAYS after they ended, revoked or expired, the oldest first, at most a batch of each a run", async () => {
    const user = await createUser();
    const db = await getDb();
    const open = async (name: string, ended: { revokedAt?: Date; expiresAt?: Date }) => {
      const [row] = await db
        .insert(sessions)
        .values({ userId: user.id, kind: "api", expiresAt: daysFromNow(10), ...ended })
        .returning({ id: sessions.id });
      return [name, row!.id] as const;
    };
    const kept = ENDED_SESSIONS_KEPT_DAYS;
    const ids = Object.fromEntries([
      await open("live", {}),
      await open("revoked recently", { revokedAt: daysFromNow(-kept + 1) }),
      await open("revoked long ago", { revokedAt: daysFromNow(-kept - 1) }),
      await open("revoked longer ago", { revokedAt: daysFromNow(-kept - 5), expiresAt: daysFromNow(-kept + 1) }),
      await open("expired recently", { expiresAt: daysFromNow(-kept + 1) }),
      await open("expired long ago", { expiresAt: daysFromNow(-kept - 1) }),
      await open("expired longer ago", { expiresAt: daysFromNow(-kept - 5) }),
    ]);
    // What hangs on an ended session goes with it (it was refused since it ended).
    await db
      .insert(refreshTokens)
      .values({ sessionId: ids["revoked long ago"]!, tokenHash: "ended-session-token", expiresAt: daysFromNow(10) });
    await db.insert(pushSubscriptions).values({
      userId: user.id,
      sessionId: ids["expired long ago"]!,
      endpoint: "https://push.example.com/ended-session",
      p256dh: "key",
      auth: "auth",
      label: "Chrome on Android",
    });
    const left = async () => {
      const rows = await db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, user.id));
      const names = Object.fromEntries(Object.entries(ids).map(([name, id]) => [id, name]));
      return rows.map((row) => names[row.id]).sort();
    };

    expect(await dropEndedSessions(db, new Date(), 1)).toBe(2);
    expect(await left()).toEqual(["expired long ago", "expired recently", "live", "revoked long ago", "revoked recently"]);
    expect((await runDueWork(db)).sessionsDropped).toBe(2);
    expect(await left()).toEqual(["expired recently", "live", "revoked recently"]);
    expect(await db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, "ended-session-token"))).toEqual([]);
    expect(await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, user.id))).toEqual([]);
    expect(await activeSessionUser(db, ids.live!)).toBe(user.id);
  });

  it("are found by an index range scan on each end, revoked and expired", async () => {
    const db = await getDb();
    const before = daysFromNow(-ENDED_SESSIONS_KEPT_DAYS);
    for (const [end, index] of [
      [sessions.revokedAt, "sessions_revoked_idx"],
      [sessions.expiresAt, "sessions_expires_idx"],
    ] as const) {
      // As db/batches.ts deleteOldest picks them.
      const oldest = db
        .select({ id: sessions.id })
        .from(sessions)
        .where(lt(end, before))
        .orderBy(end)
        .limit(ENDED_SESSION_DROPS_PER_RUN)
        .for("update", { skipLocked: true });
      const plan = await queryPlan(oldest.getSQL());
      expect(plan).toContain(index);
      expect(wholeScans(plan)).toEqual([]);
    }
  });
});

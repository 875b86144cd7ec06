import "server-only";
import { and, desc, eq, gt, inArray, isNull, lt, ne, or, sql, type Placeholder, type SQL } from "drizzle-orm";
import { deleteOldest } from "@/db/batches";
import type { Db } from "@/db/client";
import { preparedPer } from "@/db/prepared";
import { oneAtATime, transaction } from "@/db/transaction";
import { couples, pushSubscriptions, sessions, users } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { BANNED_SIGN_IN, SUSPENDED_SIGN_IN } from "@/lib/safety/rules";
import { INVALID_CREDENTIALS_MESSAGE } from "./rules";
import { hashToken } from "./secrets";
import type { Account } from "./users";

import { BROWSER_SESSION_SECONDS } from "./session-token";

export const API_SESSION_SECONDS = 30 * 24 * 60 * 60;

/**
 * Live sessions per person, browser and API alike: a sign-in past it ends the least recently used
 * ones (`openSession`), so a client signing in in a loop cannot grow the session list and every
 * "sign out everywhere" without bound. Far more devices than a couple uses.
 */
export const SESSIONS_PER_PERSON_MAX = 50;

/**
 * How long an ended session's row (revoked, or expired) stays before the due work deletes it: a
 * month in which the data export still shows where the account was signed in, for a person who
 * wonders about a device after signing it out. Nothing else reads an ended row (its refresh tokens
 * and push subscriptions, which go with it, were already refused), and without an end a client
 * signing in in a loop would grow the table and every person's session scan for ever.
 */
export const ENDED_SESSIONS_KEPT_DAYS = 30;
/** Ended sessions one run of the due work deletes at most, revoked and expired each; the next run goes on. */
export const ENDED_SESSION_DROPS_PER_RUN = 1_000;

/** What the settings page shows of a session's client: its User-Agent, cut to a sane length. */
export type SessionClient = { userAgent?: string | null };

export const USER_AGENT_MAX = 512;

type SessionKind = "browser" | "api";
export type OpenedSession = { id: string; kind: SessionKind; expiresAt: Date };

/**
 * A partner of a suspended or banned couple is refused at sign-in, by browser and token alike
 * (only once the password is right: nobody else learns it), and gets no session (`openSession`).
 * Read on the rows, under a share lock of the couple, so a suspension made on one instance holds on
 * all.
 */
export async function assertCoupleNotSuspended(db: Db, userId: string): Promise<void> {
  const [row] = await db
    .select({
      status: couples.status,
      // Qualified by hand: a one-table select names its own columns unqualified.
      banned: sql<boolean>`exists (select 1 from couple_sanctions s where s.couple_id = "couples"."id" and s.kind = 'ban' and s.lifted_at is null)`,
    })
    .from(couples)
    .where(or(eq(couples.partner1Id, userId), eq(couples.partner2Id, userId)))
    .limit(1)
    .for("share");
  if (row?.status === "suspended") throw new AppError("ACCOUNT_SUSPENDED", row.banned ? BANNED_SIGN_IN : SUSPENDED_SIGN_IN);
}

/**
 * A new session row, never for a suspended couple's partner: the couple is read under its share
 * lock in the session's transaction, and a suspension holds the couple (lib/safety/sanctions.ts
 * `lockedCouple`) until it has ended its partners' sessions. So a suspension committed before the
 * read refuses the session, and one that comes after waits for it and ends it with the others.
 * The person's row first, as a deletion and the suspension take them, then the couple.
 * A sign-in's session (`credential`: lib/auth/credentials.ts AuthenticatedUser) opens only while
 * the password it checked is still the account's: a reset or change that came in between ended
 * every session but could not see this one, so it is refused (holdSessionOpenings).
 */
async function openSession(db: Db, userId: string, kind: SessionKind, client: SessionClient, credential?: string): Promise<OpenedSession> {
  const seconds = kind === "browser" ? BROWSER_SESSION_SECONDS : API_SESSION_SECONDS;
  return transaction(db, async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("key share");
    await assertCoupleNotSuspended(tx, userId);
    const now = new Date();
    const [row] = await tx
      .insert(sessions)
      .values({
        userId,
        kind,
        expiresAt: new Date(now.getTime() + seconds * 1000),
        userAgent: client.userAgent?.slice(0, USER_AGENT_MAX) || null,
        lastSeenAt: now,
      })
      .returning({ id: sessions.id, kind: sessions.kind, expiresAt: sessions.expiresAt });
    await holdSessionOpenings(tx, userId);
    if (credential !== undefined) {
      const [person] = await tx.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId));
      if (!person || hashToken(person.passwordHash) !== credential) throw new AppError("INVALID_CREDENTIALS", INVALID_CREDENTIALS_MESSAGE);
    }
    await endLeastRecentlyUsed(tx, userId, row!.id, now);
    return row!;
  });
}

/**
 * Inside the caller's transaction, until it ends: one opening of the person's sessions at a time
 * (so two sign-ins cannot both keep the same oldest session, endLeastRecentlyUsed), and none
 * beside an ending of all of them (revokeAllSessions, revokeOtherSessions). An opening takes it
 * after its insert and before it checks the password: an ending that comes first has changed the
 * password and committed by then; one that comes later waits, then sees the new session and ends it.
 */
async function holdSessionOpenings(tx: Db, userId: string): Promise<void> {
  await oneAtATime(tx, `sessions:${userId}`);
}

/**
 * SESSIONS_PER_PERSON_MAX: the person's live sessions beyond the cap, least recently used first,
 * end as a sign-out ends them (revoked: their tokens, refresh tokens, live streams and push
 * subscriptions stop with them); the new one always stays. Under holdSessionOpenings.
 */
async function endLeastRecentlyUsed(tx: Db, userId: string, keepId: string, now: Date): Promise<void> {
  const beyondCap = tx
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), isLive(now), ne(sessions.id, keepId)))
    .orderBy(desc(sql`coalesce(${sessions.lastSeenAt}, ${sessions.createdAt})`), desc(sessions.id))
    .offset(SESSIONS_PER_PERSON_MAX - 1);
  await tx
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(inArray(sessions.id, beyondCap), isNull(sessions.revokedAt)));
}

/** A new session's id; `credential` for a sign-in's (openSession). */
export async function createSession(
  db: Db,
  userId: string,
  kind: SessionKind,
  client: SessionClient = {},
  credential?: string,
): Promise<string> {
  return (await openSession(db, userId, kind, client, credential)).id;
}

/**
 * How every route reads its caller's session (lib/http/route.ts, the `session` option): one
 * round trip that finds the session row live (else null) and takes along what the route needs:
 * nothing (the default), the account (the default of `complete-profile` calls, which then check
 * its flags and hand on its acting couple without another round trip), or the route's whole answer
 * (`value`: the current user, the forum's global list, the inbox's first page, a thread's page).
 * `input()` and `params()` parse the request's input and route params when the read needs them
 * (null when they do not parse: the read then checks the session alone, and the route answers
 * them with 400 once the session is known live). Only URL input should be read this way: it is
 * read before the session row is checked.
 */
export type SessionRead<L, I = unknown, P = unknown> = (
  db: Db,
  sessionId: string,
  input: () => Promise<I | null>,
  /** The route's params, parsed as `input` is (null when they do not parse). */
  params: () => Promise<P | null>,
) => Promise<SessionFound<L> | null>;
export type SessionFound<L> = { userId: string; value: L; account?: Account };

/** A session row is live: not revoked, and not expired at `now`. */
const isLive = (now: Placeholder | Date) => and(isNull(sessions.revokedAt), gt(sessions.expiresAt, now));

/** The live-session condition on `sessions` (joined or not), for queries with `sid` and `now` (ISO) placeholders. */
export const liveSessionWhere = () => and(eq(sessions.id, sql.placeholder("sid")), isLive(sql.placeholder("now")));

/**
 * SQL: the person of the live session named by the `sid` placeholder (no row when it is not live):
 * a read that answers by session finds its reader in its own statement (an init plan, run once).
 */
export const liveSessionUser = (): SQL => sql`(select ${sessions.userId} from ${sessions} where ${liveSessionWhere()})`;

const activeSessionQuery = preparedPer((db) =>
  db.select({ userId: sessions.userId }).from(sessions).where(liveSessionWhere()).prepare("active_session_user"),
);

/** The user id of a live session, or null when it was revoked, expired or never existed. Every signed-in call asks: prepared. */
export async function activeSessionUser(db: Db, sessionId: string): Promise<string | null> {
  const [row] = await activeSessionQuery(db).execute({ sid: sessionId, now: new Date().toISOString() });
  return row?.userId ?? null;
}

/** Of these sessions, the live ones, each with its user id, in one round trip (the live streams' heartbeat). */
export async function activeSessionUsers(db: Db, sessionIds: readonly string[]): Promise<Map<string, string>> {
  if (sessionIds.length === 0) return new Map();
  const rows = await db
    .select({ id: sessions.id, userId: sessions.userId })
    .from(sessions)
    .where(and(inArray(sessions.id, [...sessionIds]), isLive(new Date())));
  return new Map(rows.map((row) => [row.id, row.userId]));
}

/**
 * The sessions ended more than ENDED_SESSIONS_KEPT_DAYS ago go, the oldest first, at most `limit`
 * revoked and `limit` expired (the due work's, in its transaction), each found by its end's index
 * (sessions_revoked_idx, sessions_expires_idx). Answers how many.
 */
export async function dropEndedSessions(tx: Db, now: Date, limit = ENDED_SESSION_DROPS_PER_RUN): Promise<number> {
  const before = new Date(now.getTime() - ENDED_SESSIONS_KEPT_DAYS * 86_400_000);
  const revoked = await deleteOldest(tx, sessions, { where: lt(sessions.revokedAt, before), order: sessions.revokedAt, limit });
  const expired = await deleteOldest(tx, sessions, { where: lt(sessions.expiresAt, before), order: sessions.expiresAt, limit });
  return revoked + expired;
}

export async function revokeSession(db: Db, sessionId: string): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

/**
 * Ends every session of the user, browser and API alike (after a password reset), and any being
 * opened (holdSessionOpenings, held until the ending commits: in the caller's transaction or its own).
 */
export async function revokeAllSessions(db: Db, userId: string): Promise<void> {
  await transaction(db, async (tx) => {
    await holdSessionOpenings(tx, userId);
    await tx
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
  });
}

/**
 * Ends a live session and opens its successor: the same person, kind and device (its User-Agent,
 * and its push subscriptions, which end with the session they are under), a new id and a full
 * length. Whatever was copied of the old one's cookie or tokens stops working. Null when the
 * session was no longer live.
 */
export async function replaceSession(db: Db, sessionId: string): Promise<OpenedSession | null> {
  const [old] = await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.id, sessionId), isLive(new Date())))
    .returning({ userId: sessions.userId, kind: sessions.kind, userAgent: sessions.userAgent });
  if (!old) return null;
  const successor = await openSession(db, old.userId, old.kind, { userAgent: old.userAgent });
  await db.update(pushSubscriptions).set({ sessionId: successor.id }).where(eq(pushSubscriptions.sessionId, sessionId));
  return successor;
}

/**
 * Ends every session of the user but one (a password change keeps the session that made it, to
 * replace it; 'sign out everywhere else' the caller's), and any being opened (holdSessionOpenings,
 * held until the ending commits: in the caller's transaction or its own).
 */
export async function revokeOtherSessions(db: Db, userId: string, keepSessionId: string): Promise<number> {
  return transaction(db, async (tx) => {
    await holdSessionOpenings(tx, userId);
    const ended = await tx
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId), isNull(sessions.revokedAt)))
      .returning({ id: sessions.id });
    return ended.length;
  });
}

/** How stale "last seen" may get: a session in use is written at most this often. */
export const TOUCH_EVERY_MS = 5 * 60 * 1000;
const touched = ((globalThis as { __sessionTouches?: Map<string, number> }).__sessionTouches ??= new Map());

/**
 * Records that a live session was used, for the settings page's "last seen", and slides a
 * browser session's end to BROWSER_SESSION_SECONDS from now: the route guard renews the cookie
 * for as long on the pages that come here (guard-session.ts), so a couple who keeps visiting
 * stays signed in and the cookie ends with its session (within TOUCH_EVERY_MS). An API session
 * keeps its fixed length (its refresh tokens never outlive it). Never revives an ended session.
 * At most one write per session every TOUCH_EVERY_MS, per process and in the database alike;
 * never throws.
 */
export async function touchSession(db: Db, sessionId: string, now = Date.now()): Promise<void> {
  const last = touched.get(sessionId);
  if (last !== undefined && now - last < TOUCH_EVERY_MS) return;
  if (touched.size >= 10_000) touched.clear();
  touched.set(sessionId, now);
  try {
    await db
      .update(sessions)
      .set({
        lastSeenAt: new Date(now),
        expiresAt: sql`case when ${sessions.kind} = 'browser' then ${new Date(now + BROWSER_SESSION_SECONDS * 1000).toISOString()}::timestamptz else ${sessions.expiresAt} end`,
      })
      .where(
        and(
          eq(sessions.id, sessionId),
          isLive(new Date(now)),
          or(isNull(sessions.lastSeenAt), lt(sessions.lastSeenAt, new Date(now - TOUCH_EVERY_MS))),
        ),
      );
  } catch {
    // a failed write must never fail the request that used the session: a later use writes again
  }
}

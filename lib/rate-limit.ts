import "server-only";
import { and, asc, eq, gte, lt, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { oneAtATime, transaction } from "@/db/transaction";
import { rateLimitHits } from "@/db/schema";
import { AppError } from "@/lib/errors";

/** A limit; `message` is what a caller over it is told (else TOO_MANY_REQUESTS). */
export type Limit = { bucket: string; limit: number; windowSeconds: number; message?: string };
export type LimitState = { allowed: boolean; remaining: number; retryAfterSeconds: number };

/**
 * The limits of accounts, sign-in, settings, places and the directory. An area's own limits sit
 * beside its rules, in this same `Limit` shape: lib/forum/rules.ts (FORUM_LIMITS),
 * lib/messages/rules.ts (MESSAGE_LIMITS), lib/plans/rules.ts (PLAN_LIMITS), lib/safety/rules.ts
 * (reports, blocks, moderation), lib/connections/rules.ts (hellos a day), lib/verification/rules.ts
 * (selfies), lib/discover/rules.ts ('Not for us') and lib/notifications/push/limits.ts (push).
 */
export const LIMITS = {
  signInPerAccount: { bucket: "sign-in:account", limit: 5, windowSeconds: 15 * 60 },
  /** Failures from a browser that signed in to the account before (its device cookie). */
  signInPerDevice: { bucket: "sign-in:device", limit: 5, windowSeconds: 15 * 60 },
  signInPerAddress: { bucket: "sign-in:address", limit: 50, windowSeconds: 15 * 60 },
  /**
   * Failures at one account from every address together (guesses spread over many networks):
   * above what one address may fail (signInPerAccount), and never counted for a trusted device.
   */
  signInPerAccountEverywhere: { bucket: "sign-in:account-everywhere", limit: 20, windowSeconds: 15 * 60 },
  registrationPerAddress: { bucket: "register:address", limit: 10, windowSeconds: 60 * 60 },
  /**
   * Refresh-token trades of one API session (each stores a token, kept for reuse detection while the
   * session lives): a client refreshes once its 15-minute access token ends, a few times an hour; 60
   * only bounds a loop.
   */
  refreshPerSession: { bucket: "token-refresh:session", limit: 60, windowSeconds: 60 * 60 },
  verificationCooldown: { bucket: "verify-mail:cooldown", limit: 1, windowSeconds: 60 },
  verificationPerHour: { bucket: "verify-mail:hour", limit: 5, windowSeconds: 60 * 60 },
  verificationPerAddress: { bucket: "verify-mail:address", limit: 20, windowSeconds: 60 * 60 },
  passwordResetPerAccount: { bucket: "reset-mail:account", limit: 3, windowSeconds: 60 * 60 },
  passwordResetPerAddress: { bucket: "reset-mail:address", limit: 20, windowSeconds: 60 * 60 },
  invitationsPerInviter: {
    bucket: "invitation-send:user",
    limit: 10,
    windowSeconds: 60 * 60,
    message: "Too many invitations sent. Please try again later.",
  },
  invitationAcceptPerAddress: { bucket: "invitation-accept:address", limit: 10, windowSeconds: 60 * 60 },
  invitationLookupFailuresPerAddress: { bucket: "invitation-lookup:address", limit: 30, windowSeconds: 60 * 60 },
  /** Wrong passwords typed into the settings (change password or e-mail, delete the account). */
  passwordConfirmPerUser: { bucket: "password-confirm:user", limit: 10, windowSeconds: 15 * 60 },
  emailChangePerUser: { bucket: "email-change:user", limit: 5, windowSeconds: 60 * 60 },
  /** Enough for a map being panned; not for sweeping the world in 200 km tiles. */
  nearbyPerUser: { bucket: "nearby:user", limit: 60, windowSeconds: 10 * 60 },
  /**
   * The directory's 'Load more' pages and the filter sheet's counts (one a pause of 200 ms while
   * boxes are ticked), together: a person browsing in several tabs asks a few dozen in ten minutes;
   * 300 is far beyond that, and bounds what a loop of searches reads.
   */
  directoryPerUser: { bucket: "directory:user", limit: 300, windowSeconds: 10 * 60 },
  /** The directory's map, up to 500 couples a call, one call a filter choice: enough to try a choice every ten seconds. */
  directoryMapPerUser: { bucket: "directory-map:user", limit: 60, windowSeconds: 10 * 60 },
  /** 'Both of us approve new connections', saved at each flip (turned off, it opens the hellos answered): far beyond flipping it. */
  connectionSettingsPerUser: { bucket: "connection-settings:user", limit: 60, windowSeconds: 60 * 60 },
  /** The notification settings, saved with their button: a person saves a handful of times; 120 an hour only bounds a loop. */
  notificationSettingsPerUser: { bucket: "notification-settings:user", limit: 120, windowSeconds: 60 * 60 },
  /** Notices marked read, one a click on an unread one (or 'Mark all as read'): two a second for a minute is beyond any reader. */
  notificationReadsPerUser: { bucket: "notification-read:user", limit: 120, windowSeconds: 60 },
  /**
   * 'Your profile' and 'Couple profile' saved (text alone, or with photos), the directory switch, a
   * couple's new place, and onboarding's step 1, one-call setup or completed registration sent
   * again, together (a couple save also tells the partner): a person saves a handful of times;
   * 120 an hour only bounds a loop.
   */
  profileSavesPerUser: { bucket: "profile-save:user", limit: 120, windowSeconds: 60 * 60 },
  /** A place saved, its privacy level (saved at each choice) and a place removed, together: far beyond trying each of the five levels. */
  locationSettingsPerUser: { bucket: "location-settings:user", limit: 60, windowSeconds: 60 * 60 },
  /** 'Download my data' reads all a person's history: enough for a person, not for a loop. */
  accountExportPerUser: { bucket: "account-export:user", limit: 10, windowSeconds: 60 * 60 },
  /**
   * Place suggestions, by address (public: registration searches before there is an account); with
   * Google each is a billed Autocomplete request. A person typing sends one a pause (300 ms
   * debounce), a few a place: 60 a minute is far beyond that, and the hour's 600 bounds what a loop
   * from one address costs a day (14,400 rather than 86,400).
   */
  placeSearchPerAddress: {
    bucket: "place-search:address",
    limit: 60,
    windowSeconds: 60,
    message: "Too many location searches. Please try again later.",
  },
  placeSearchPerAddressHourly: {
    bucket: "place-search:address-hour",
    limit: 600,
    windowSeconds: 60 * 60,
    message: "Too many location searches. Please try again later.",
  },
  /**
   * A chosen place looked up (lib/locations/place lookupPlaceDetails: a saved location, step 1, a
   * couple's place, an event draft, a plan's place), each a billed Place Details lookup: one a pick,
   * so 30 an hour a person is far beyond choosing and choosing again; an address (every route and
   * server action knows it: lib/http/client-address.ts) holds several people (a household, an
   * office), so four times that.
   */
  placeLookupPerUser: {
    bucket: "place-lookup:user",
    limit: 30,
    windowSeconds: 60 * 60,
    message: "Too many location changes. Please try again later.",
  },
  placeLookupPerAddress: {
    bucket: "place-lookup:address",
    limit: 120,
    windowSeconds: 60 * 60,
    message: "Too many location changes. Please try again later.",
  },
  /** Photos uploaded ahead of a save (six a profile): ten full profiles an hour. */
  stagedPhotosPerUser: {
    bucket: "staged-photo:user",
    limit: 60,
    windowSeconds: 60 * 60,
    message: "Too many photos uploaded. Please try again later.",
  },
} as const satisfies Record<string, Limit>;

export const TOO_MANY_REQUESTS = "Too many requests. Please try again later.";

/** The spec's 429 for a caller over `limit`, with Retry-After. */
export const limitError = (limit: Limit, retryAfterSeconds: number): AppError =>
  new AppError("RATE_LIMITED", limit.message ?? TOO_MANY_REQUESTS, { retryAfterSeconds });

/** Throws the limit's 429 unless the subject is under each limit; uses nothing up (the domain counts the call when it makes it). */
export async function assertUnderLimits(db: Db, limits: readonly Limit[], subject: string): Promise<void> {
  for (const limit of limits) {
    const state = await checkLimit(db, limit, subject);
    if (!state.allowed) throw limitError(limit, state.retryAfterSeconds);
  }
}

/** Counts the call against each limit with its subject, in turn; the first one over throws its 429. */
export async function spendLimits(db: Db, spends: readonly (readonly [Limit, string])[]): Promise<void> {
  for (const [limit, subject] of spends) {
    const state = await consumeLimit(db, limit, subject);
    if (!state.allowed) throw limitError(limit, state.retryAfterSeconds);
  }
}

const windowStart = (limit: Limit) => new Date(Date.now() - limit.windowSeconds * 1000);

/** How a subject stands against a limit, without using it up. */
export async function checkLimit(db: Db, limit: Limit, subject: string): Promise<LimitState> {
  const since = windowStart(limit);
  const hits = await db
    .select({ createdAt: rateLimitHits.createdAt })
    .from(rateLimitHits)
    .where(and(eq(rateLimitHits.bucket, limit.bucket), eq(rateLimitHits.subject, subject), gte(rateLimitHits.createdAt, since)))
    .orderBy(asc(rateLimitHits.createdAt))
    .limit(limit.limit);
  const used = hits.length;
  if (used < limit.limit) return { allowed: true, remaining: limit.limit - used, retryAfterSeconds: 0 };
  const oldest = hits[0]!.createdAt.getTime();
  const retryAfterSeconds = Math.max(1, Math.ceil((oldest + limit.windowSeconds * 1000 - Date.now()) / 1000));
  return { allowed: false, remaining: 0, retryAfterSeconds };
}

/** Every limit's window is shorter than this; older hits of subjects that never came back go too. */
const PRUNE_AFTER_SECONDS = 24 * 60 * 60;

/** Counts one hit. Old hits of the subject are pruned on the way, and now and then everyone's. */
export async function recordHit(db: Db, limit: Limit, subject: string): Promise<void> {
  await db
    .delete(rateLimitHits)
    .where(
      and(eq(rateLimitHits.bucket, limit.bucket), eq(rateLimitHits.subject, subject), lt(rateLimitHits.createdAt, windowStart(limit))),
    );
  if (Math.random() < 0.01) {
    await db.delete(rateLimitHits).where(lt(rateLimitHits.createdAt, new Date(Date.now() - PRUNE_AFTER_SECONDS * 1000)));
  }
  await db.insert(rateLimitHits).values({ bucket: limit.bucket, subject });
}

/**
 * Runs `run` in a transaction holding a lock on one subject of a limit, so concurrent requests
 * for that subject (on any instance) check and count one after the other.
 */
export async function withLimitLock<T>(db: Db, limit: Limit, subject: string, run: (tx: Db) => Promise<T>): Promise<T> {
  return transaction(db, async (tx) => {
    await oneAtATime(tx, `${limit.bucket}:${subject}`);
    return run(tx);
  });
}

/** Checks and counts in one step: two instances cannot both take the last slot. */
export async function consumeLimit(db: Db, limit: Limit, subject: string): Promise<LimitState> {
  return withLimitLock(db, limit, subject, async (tx) => {
    const state = await checkLimit(tx, limit, subject);
    if (!state.allowed) return state;
    await recordHit(tx, limit, subject);
    return { ...state, remaining: state.remaining - 1 };
  });
}

export async function clearHits(db: Db, limit: Limit, subject: string): Promise<void> {
  await db.delete(rateLimitHits).where(and(eq(rateLimitHits.bucket, limit.bucket), eq(rateLimitHits.subject, subject)));
}

/**
 * Every hit counted against `subjects`, in any bucket (a deleted account's id: its hits record
 * when it posted, wrote, reacted). The buckets are walked through the lookup index one at a time
 * (a loose index scan), so the work grows with the buckets in use, never with the table.
 */
export async function forgetHitsOf(db: Db, subjects: readonly string[]): Promise<void> {
  if (subjects.length === 0) return;
  await db.execute(sql`
    with recursive buckets(bucket) as (
      select min(bucket) from ${rateLimitHits}
      union all
      select (select min(bucket) from ${rateLimitHits} where bucket > buckets.bucket) from buckets where buckets.bucket is not null
    )
    delete from ${rateLimitHits}
    where bucket in (select bucket from buckets where bucket is not null)
      and subject in (${sql.join(
        subjects.map((subject) => sql`${subject}`),
        sql`, `,
      )})`);
}

/** Clears the hits of every subject that starts with `prefix` (starts_with: no LIKE wildcards to escape). */
export async function clearHitsStartingWith(db: Db, limit: Limit, prefix: string): Promise<void> {
  await db.delete(rateLimitHits).where(and(eq(rateLimitHits.bucket, limit.bucket), sql`starts_with(${rateLimitHits.subject}, ${prefix})`));
}

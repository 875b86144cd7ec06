import "server-only";
import { and, gt, isNull, or, sql } from "drizzle-orm";
import { pushOutbox, pushSubscriptions, sessions } from "@/db/schema";

/** The conditions the push writer and the sender share. */

/** A subscription still in use: made under a session that has not ended (signing out on that device ends it). */
export const liveSubscription = () =>
  or(
    isNull(pushSubscriptions.sessionId),
    sql`exists (select 1 from ${sessions} where ${sessions.id} = ${pushSubscriptions.sessionId} and ${sessions.revokedAt} is null and ${sessions.expiresAt} > now())`,
  );

/**
 * Due now and not yet claimed: what a sender takes next. `now` has milliseconds and `due_at`
 * microseconds (its default is the database's clock): a push queued within `now`'s own
 * millisecond, as one written just before the commit's run is, counts as due (before the next
 * millisecond, which the due_at index still ranges over).
 */
export const waiting = (now: Date) =>
  and(isNull(pushOutbox.claimedAt), sql`${pushOutbox.dueAt} < ${new Date(now.getTime() + 1).toISOString()}::timestamptz`);

/** A claim older than this belongs to a sender that stopped: the push is dropped, never sent twice. */
export const LOST_CLAIM_MS = 10 * 60_000;
export const lostClaim = (now: Date) =>
  gt(sql`${now.toISOString()}::timestamptz - ${pushOutbox.claimedAt}`, sql`${`${LOST_CLAIM_MS} milliseconds`}::interval`);

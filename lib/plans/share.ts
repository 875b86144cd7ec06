import "server-only";
import { spendLimits } from "@/lib/rate-limit";
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { sentJustNow, transaction } from "@/db/transaction";
import { conversations, couples, planShares, plans, users } from "@/db/schema";
import type { ActingCouple } from "@/lib/membership/acting-couple";
import { couplePartners } from "@/lib/membership/partner";
import { hashToken, hmac, safeEqual } from "@/lib/auth/secrets";
import { authSecret } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { isDiscoverable } from "@/lib/safety/visibility";
import { shareEndsAt } from "./calendar";
import { tellEveryone } from "./live";
import { holdPeopleOf, memberPlan } from "./queries";
import { conversationEndedError, endedSql } from "@/lib/messages/queries";
import { PLAN_LIMITS, PLAN_TEXTS } from "./rules";
import { isoAtPlace } from "./time";

/**
 * 'Share with a friend': a read-only link for someone outside the app, made by any of the four,
 * one per couple (db/schema/plans.ts `plan_shares`): the other couple can neither replace nor
 * stop it. Its token is 256 bits signed with the server's secret over the link's plan, couple and
 * creation time (shareToken), of which only the SHA-256 is stored; a new link replaces the
 * couple's last, 'Stop sharing' or cancelling the plan revokes it, and it expires a day after the
 * meetup.
 */

const asInstants = (plan: { startsAt: Date; endsAt: Date | null }) => ({
  startsAt: plan.startsAt.toISOString(),
  endsAt: plan.endsAt?.toISOString() ?? null,
});
const TOKEN = /^[\w-]{43}$/;

export const sharePath = (token: string) => `/plan/${token}`;

/**
 * A link's token, made again from its row: the server's secret signs the plan, the couple and the
 * creation time (to the millisecond, as stored), so a share sent again can answer the link
 * already made although only its digest is stored, and the database alone yields no link.
 */
const shareToken = (planId: string, coupleId: string, createdAt: Date) =>
  hmac(authSecret(), `plan-share:${planId}:${coupleId}:${createdAt.toISOString()}`);

/**
 * `POST /api/plans/{id}/share`: a new link for the member's couple (its previous one stops
 * working); answers its path. A share sent again within SENT_AGAIN_SECONDS (a double click, both
 * partners at once) answers the couple's link just made, so every answer shown still works; the
 * plan's row lock makes the second wait for the first. Counts against PLAN_LIMITS.answersPerHour.
 */
export async function sharePlan(db: Db, member: ActingCouple, planId: string, now = new Date()): Promise<{ path: string }> {
  await spendLimits(db, [[PLAN_LIMITS.answersPerHour, member.userId]]);
  return transaction(db, async (tx) => {
    await holdPeopleOf(tx, { planId }, member.coupleId);
    const plan = await memberPlan(tx, member, planId, true);
    if (plan.ended) throw conversationEndedError();
    if (plan.cancelledAt) throw new AppError("PLAN_CLOSED", PLAN_TEXTS.cancelled);
    if (shareEndsAt(asInstants(plan)) <= now) throw new AppError("PLAN_CLOSED", PLAN_TEXTS.started);
    const ofCouple = and(eq(planShares.planId, planId), eq(planShares.coupleId, member.coupleId));
    const [last] = await tx
      .select({ tokenHash: planShares.tokenHash, createdAt: planShares.createdAt })
      .from(planShares)
      .where(and(ofCouple, sentJustNow(planShares.createdAt)));
    if (last) {
      const token = shareToken(planId, member.coupleId, last.createdAt);
      // Only when it is that link: one made otherwise (before this rule, another secret) is replaced.
      if (safeEqual(hashToken(token), last.tokenHash)) return { path: sharePath(token) };
    }
    const createdAt = new Date();
    const token = shareToken(planId, member.coupleId, createdAt);
    const tokenHash = hashToken(token);
    await tx
      .insert(planShares)
      .values({ planId, coupleId: member.coupleId, tokenHash, createdAt })
      .onConflictDoUpdate({ target: [planShares.planId, planShares.coupleId], set: { tokenHash, createdAt } });
    await tellCouple(tx, member, planId);
    return { path: sharePath(token) };
  });
}

/**
 * The couple's `sharing` changed: both partners' cards learn it live, so the partner's card offers
 * 'Stop sharing', not a 'Make a link' that would silently replace the link already sent to a friend.
 * The other couple's `sharing` is its own and did not change.
 */
async function tellCouple(tx: Db, member: ActingCouple, planId: string): Promise<void> {
  await tellEveryone(
    tx,
    planId,
    (await couplePartners(tx, member.coupleId)).map((userId) => ({ userId })),
  );
}

/** `DELETE /api/plans/{id}/share`: the member's couple's link stops working at once (the other couple's stays); counts as sharing does. */
export async function stopSharing(db: Db, member: ActingCouple, planId: string): Promise<void> {
  await spendLimits(db, [[PLAN_LIMITS.answersPerHour, member.userId]]);
  await transaction(db, async (tx) => {
    await holdPeopleOf(tx, { planId }, member.coupleId);
    await memberPlan(tx, member, planId);
    const stopped = await tx
      .delete(planShares)
      .where(and(eq(planShares.planId, planId), eq(planShares.coupleId, member.coupleId)))
      .returning({ planId: planShares.planId });
    if (stopped.length > 0) await tellCouple(tx, member, planId);
  });
}

/** Cancelling plans revokes their links, in the cancelling transaction. */
export async function revokeShares(tx: Db, planIds: readonly string[]): Promise<void> {
  if (planIds.length > 0) await tx.delete(planShares).where(inArray(planShares.planId, [...planIds]));
}

/** What the friend sees: no last names, e-mails or addresses beyond the venue and city. */
export type SharedPlan = {
  title: string;
  startsAt: string;
  timeZone: string;
  place: { name: string; city: string | null; country: string | null };
  venue: string | null;
  meeting: { firstNames: string[]; photoUrl: string | null } | null;
};

/**
 * The plan behind a shared link, or null: a malformed, unknown, revoked or expired token, a
 * cancelled plan and one whose conversation has ended (a block, a suspension, a couple gone) all
 * read the same, so nothing of the couples reaches an outsider once they no longer meet. The
 * stored digest is compared again in constant time after the indexed look-up.
 */
export async function sharedPlan(db: Db, token: string, now = new Date()): Promise<SharedPlan | null> {
  if (!TOKEN.test(token)) return null;
  const digest = hashToken(token);
  const [row] = await db
    .select({
      hash: planShares.tokenHash,
      title: plans.title,
      startsAt: plans.startsAt,
      endsAt: plans.endsAt,
      timeZone: plans.timeZone,
      placeName: plans.placeName,
      placeCity: plans.placeCity,
      placeCountry: plans.placeCountry,
      venue: plans.venue,
      cancelledAt: plans.cancelledAt,
      shareCoupleId: planShares.coupleId,
      conversationId: plans.conversationId,
      ended: endedSql,
    })
    .from(planShares)
    .innerJoin(plans, eq(plans.id, planShares.planId))
    .innerJoin(conversations, eq(conversations.id, plans.conversationId))
    .where(eq(planShares.tokenHash, digest));
  if (!row?.hash || !safeEqual(row.hash, digest)) return null;
  if (row.cancelledAt || row.ended) return null;
  if (shareEndsAt(asInstants(row)) <= now) return null;
  return {
    title: row.title,
    startsAt: isoAtPlace(row.startsAt, row.timeZone),
    timeZone: row.timeZone,
    place: { name: row.placeName, city: row.placeCity, country: row.placeCountry },
    venue: row.venue,
    meeting: await otherCouple(db, row.conversationId, row.shareCoupleId),
  };
}

/**
 * The couple the sharer's couple is meeting: first names, and its main photo while it lets those
 * it has not met see it (lib/safety/visibility.ts isDiscoverable): the friend is someone it never met.
 */
async function otherCouple(db: Db, conversationId: string, sharerCoupleId: string | null): Promise<SharedPlan["meeting"]> {
  const [conversation] = await db
    .select({ low: conversations.coupleLowId, high: conversations.coupleHighId })
    .from(conversations)
    .where(eq(conversations.id, conversationId));
  const otherId = conversation?.low === sharerCoupleId ? conversation?.high : conversation?.low;
  if (!otherId) return null;
  const [couple] = await db
    .select({
      p1: couples.partner1Id,
      p2: couples.partner2Id,
      photoUrl: couples.profileImageUrl,
      status: couples.status,
      isVisible: couples.isVisible,
    })
    .from(couples)
    .where(eq(couples.id, otherId));
  if (!couple) return null;
  const ids = couple.p2 ? [couple.p1, couple.p2] : [couple.p1];
  const people = await db.select({ id: users.id, firstName: users.firstName }).from(users).where(inArray(users.id, ids));
  const names = ids.map((id) => people.find((p) => p.id === id)?.firstName ?? "").filter(Boolean);
  return { firstNames: names, photoUrl: isDiscoverable(couple) ? couple.photoUrl : null };
}

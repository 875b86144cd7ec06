import "server-only";
import { and, eq, inArray, isNotNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { conversations, couples, plans, users } from "@/db/schema";
import type { ActingCouple } from "@/lib/membership/acting-couple";
import { hashToken, newSecretToken, safeEqual } from "@/lib/auth/secrets";
import { AppError } from "@/lib/errors";
import { endOf } from "./calendar";
import { conversationEnded, memberPlan } from "./queries";
import { PLAN_TEXTS } from "./rules";
import { isoAtPlace } from "./time";

/**
 * 'Share with a friend': a read-only link for someone outside the app, made by any of the four.
 * Its token is 256 random bits of which only the SHA-256 is stored; a new link replaces the last,
 * 'Stop sharing' or cancelling the plan revokes it, and it expires a day after the meetup.
 */

const HOUR = 3_600_000;
/** The link works until this long after the meetup's end. */
export const SHARE_AFTER_HOURS = 24;
const TOKEN = /^[\w-]{43}$/;

export const sharePath = (token: string) => `/plan/${token}`;

/** `POST /api/plans/{id}/share`: a new link (the previous one stops working); answers its path. */
export async function sharePlan(db: Db, member: ActingCouple, planId: string, now = new Date()): Promise<{ path: string }> {
  const plan = await memberPlan(db, member, planId);
  if (plan.ended) throw new AppError("CONVERSATION_ENDED", "This conversation has ended.");
  if (plan.cancelledAt) throw new AppError("PLAN_CLOSED", PLAN_TEXTS.cancelled);
  if (
    endOf({ startsAt: plan.startsAt.toISOString(), endsAt: plan.endsAt?.toISOString() ?? null }).getTime() + SHARE_AFTER_HOURS * HOUR <=
    now.getTime()
  )
    throw new AppError("PLAN_CLOSED", PLAN_TEXTS.started);
  const token = newSecretToken();
  await db
    .update(plans)
    .set({ shareTokenHash: hashToken(token), shareCoupleId: member.coupleId })
    .where(eq(plans.id, planId));
  return { path: sharePath(token) };
}

/** `DELETE /api/plans/{id}/share`: the link stops working at once. */
export async function stopSharing(db: Db, member: ActingCouple, planId: string): Promise<void> {
  await memberPlan(db, member, planId);
  await db.update(plans).set({ shareTokenHash: null, shareCoupleId: null }).where(eq(plans.id, planId));
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
      hash: plans.shareTokenHash,
      title: plans.title,
      startsAt: plans.startsAt,
      endsAt: plans.endsAt,
      timeZone: plans.timeZone,
      placeName: plans.placeName,
      placeCity: plans.placeCity,
      placeCountry: plans.placeCountry,
      venue: plans.venue,
      cancelledAt: plans.cancelledAt,
      shareCoupleId: plans.shareCoupleId,
      conversationId: plans.conversationId,
      ended: conversationEnded,
    })
    .from(plans)
    .innerJoin(conversations, eq(conversations.id, plans.conversationId))
    .where(and(eq(plans.shareTokenHash, digest), isNotNull(plans.shareTokenHash)));
  if (!row?.hash || !safeEqual(row.hash, digest)) return null;
  if (row.cancelledAt || row.ended) return null;
  if (
    endOf({ startsAt: row.startsAt.toISOString(), endsAt: row.endsAt?.toISOString() ?? null }).getTime() + SHARE_AFTER_HOURS * HOUR <=
    now.getTime()
  )
    return null;
  return {
    title: row.title,
    startsAt: isoAtPlace(row.startsAt, row.timeZone),
    timeZone: row.timeZone,
    place: { name: row.placeName, city: row.placeCity, country: row.placeCountry },
    venue: row.venue,
    meeting: await otherCouple(db, row.conversationId, row.shareCoupleId),
  };
}

/** The couple the sharer's couple is meeting: first names and main photo only. */
async function otherCouple(db: Db, conversationId: string, sharerCoupleId: string | null): Promise<SharedPlan["meeting"]> {
  const [conversation] = await db
    .select({ low: conversations.coupleLowId, high: conversations.coupleHighId })
    .from(conversations)
    .where(eq(conversations.id, conversationId));
  const otherId = conversation?.low === sharerCoupleId ? conversation?.high : conversation?.low;
  if (!otherId) return null;
  const [couple] = await db
    .select({ p1: couples.partner1Id, p2: couples.partner2Id, photoUrl: couples.profileImageUrl })
    .from(couples)
    .where(eq(couples.id, otherId));
  if (!couple) return null;
  const ids = couple.p2 ? [couple.p1, couple.p2] : [couple.p1];
  const people = await db.select({ id: users.id, firstName: users.firstName }).from(users).where(inArray(users.id, ids));
  const names = ids.map((id) => people.find((p) => p.id === id)?.firstName ?? "").filter(Boolean);
  return { firstNames: names, photoUrl: couple.photoUrl };
}

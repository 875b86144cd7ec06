import "server-only";
import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, lte, not, or, sql, type Placeholder, type SQL } from "drizzle-orm";
import { alias, unionAll } from "drizzle-orm/pg-core";
import type { Db } from "@/db/client";
import { jsonArray, keyedFields } from "@/db/json";
import { placeholderSql, preparedPer } from "@/db/prepared";
import { conversations, couples, planAnswers, planFeedback, planShares, plans, users } from "@/db/schema";
import type { ActingCouple } from "@/lib/membership/acting-couple";
import { decidingPartner2Id, secondPartner } from "@/lib/membership/partner";
import { AppError } from "@/lib/errors";
import { holdPeopleOfConversations, ofCouple } from "@/lib/messages/access";
import { endedSql } from "@/lib/messages/queries";
import { isConfirmed, PLAN_TEXTS, UPCOMING_PER_CONVERSATION, type FeedbackAnswer, type PlanAnswer } from "./rules";
import { shareEndsAt } from "./calendar";
import type { PlanView } from "./view";
import { isoAtPlace } from "./time";

/**
 * Reads of plans. A plan is read by the four people of its conversation only (the one
 * conversation-read rule, lib/messages/access.ts): anyone else gets 404 with nothing revealed.
 */

export const planNotFound = () => new AppError("NOT_FOUND", PLAN_TEXTS.notFound);

/** A plan as the API answers it (README "Plans"); the browser's copy of the type: ./view.ts. */
export type PlanItem = PlanView;

export const planColumns = {
  id: plans.id,
  conversationId: plans.conversationId,
  proposerUserId: plans.proposerUserId,
  proposerCoupleId: plans.proposerCoupleId,
  title: plans.title,
  startsLocal: plans.startsLocal,
  endsLocal: plans.endsLocal,
  timeZone: plans.timeZone,
  startsAt: plans.startsAt,
  endsAt: plans.endsAt,
  placeId: plans.placeId,
  placeName: plans.placeName,
  placeCity: plans.placeCity,
  placeCountry: plans.placeCountry,
  venue: plans.venue,
  note: plans.note,
  sequence: plans.sequence,
  cancelledAt: plans.cancelledAt,
  cancelReason: plans.cancelReason,
  metConfirmedAt: plans.metConfirmedAt,
};

export type PlanRow = Pick<typeof plans.$inferSelect, keyof typeof planColumns>;

/** The member's plan with whether its conversation has ended, or 404 (a plan of another pair too). */
export async function memberPlan(db: Db, member: ActingCouple, planId: string, lock = false): Promise<PlanRow & { ended: boolean }> {
  const query = db
    .select({ ...planColumns, ended: endedSql })
    .from(plans)
    .innerJoin(conversations, eq(conversations.id, plans.conversationId))
    .where(and(eq(plans.id, planId), ofCouple(member.coupleId)));
  const [row] = await (lock ? query.for("update", { of: plans }) : query);
  if (!row) throw planNotFound();
  return row;
}

/**
 * First in a plan write's transaction: the rows of the four people of the conversation (of the
 * plan's, or of each conversation the SQL selects), key-shared in id order, as its notices and
 * live rows to them take them anyway, but before the conversation and the plan (person rows
 * first, the lock order). An account's deletion takes the person's row, then cancels or writes
 * their couple's plans: the write waits for it before holding the plan, never holds the plan
 * while the deletion waits on it. `memberCouple`: the writing couple's, of whose conversations only
 * (holdPeopleOfConversations): a write it may not make holds nobody before its 404.
 */
export async function holdPeopleOf(
  tx: Db,
  of: { conversationId: string } | { planId: string } | { conversationIds: SQL },
  memberCouple?: string,
): Promise<void> {
  const which =
    "conversationId" in of
      ? sql`${of.conversationId}::uuid`
      : "planId" in of
        ? sql`select ${plans.conversationId} from ${plans} where ${plans.id} = ${of.planId}`
        : of.conversationIds;
  await holdPeopleOfConversations(tx, which, memberCouple);
}

/**
 * The people of each conversation now, in a stable order (the lower couple's partners first), with
 * first names, and whether a plan waits on their answer (`deciding`, decidingPartner2Id: not a
 * partner 2 who has yet to prove the address, who is told of plans all the same).
 */
type Person = { userId: string; firstName: string; coupleId: string; deciding: boolean };

const firstPartner = alias(users, "first_partner");

async function peopleOf(db: Db, conversationIds: string[]): Promise<Map<string, Person[]>> {
  const people = new Map<string, Person[]>();
  if (conversationIds.length === 0) return people;
  // The partners' first names in the same statement: one round trip for the people of every plan.
  const rows = await db
    .select({
      conversationId: conversations.id,
      low: conversations.coupleLowId,
      coupleId: couples.id,
      p1: couples.partner1Id,
      p1Name: firstPartner.firstName,
      p2: couples.partner2Id,
      p2Deciding: sql<boolean>`${decidingPartner2Id} is not null`,
      p2Name: secondPartner.firstName,
    })
    .from(conversations)
    .innerJoin(couples, or(eq(couples.id, conversations.coupleLowId), eq(couples.id, conversations.coupleHighId)))
    .leftJoin(firstPartner, eq(firstPartner.id, couples.partner1Id))
    .leftJoin(secondPartner, eq(secondPartner.id, couples.partner2Id))
    .where(inArray(conversations.id, conversationIds));
  rows.sort((a, b) => Number(b.coupleId === b.low) - Number(a.coupleId === a.low));
  for (const row of rows) {
    const list = people.get(row.conversationId) ?? [];
    list.push({ userId: row.p1, firstName: row.p1Name ?? "", coupleId: row.coupleId, deciding: true });
    if (row.p2) list.push({ userId: row.p2, firstName: row.p2Name ?? "", coupleId: row.coupleId, deciding: row.p2Deciding });
    people.set(row.conversationId, list);
  }
  return people;
}

/** Everyone of each conversation now, a partner 2 yet to prove the address too: who is told of its plans (notices, live). */
export async function everyoneIn(db: Db, conversationIds: string[]): Promise<Map<string, string[]>> {
  const people = await peopleOf(db, conversationIds);
  return new Map([...people].map(([id, list]) => [id, list.map((person) => person.userId)]));
}

/**
 * The rows as the API answers them, for a viewer (their own 'How was it?' answer, whether their
 * couple's shared link works): four reads whatever their number (people, answers, feedback,
 * links), never one per plan, two in a row.
 */
export async function planItems(db: Db, rows: readonly PlanRow[], viewerId: string | null = null, now = new Date()): Promise<PlanItem[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  // The people, answers and feedback side by side; the shared links need the viewer's couple first.
  const [people, answered, feedback] = await Promise.all([
    peopleOf(db, [...new Set(rows.map((row) => row.conversationId))]),
    db
      .select({ planId: planAnswers.planId, userId: planAnswers.userId, answer: planAnswers.answer })
      .from(planAnswers)
      .where(inArray(planAnswers.planId, ids)),
    db
      .select({ planId: planFeedback.planId, userId: planFeedback.userId, answer: planFeedback.answer })
      .from(planFeedback)
      .where(inArray(planFeedback.planId, ids)),
  ]);
  const viewerCouple = [...people.values()].flat().find((person) => person.userId === viewerId)?.coupleId;
  const shared = new Set(
    viewerCouple
      ? (
          await db
            .select({ planId: planShares.planId })
            .from(planShares)
            .innerJoin(plans, eq(plans.id, planShares.planId))
            .innerJoin(conversations, eq(conversations.id, plans.conversationId))
            // A link of an ended conversation opens nothing (lib/plans/share.ts), so it is not 'working'.
            .where(and(inArray(planShares.planId, ids), eq(planShares.coupleId, viewerCouple), sql`not ${endedSql}`))
        ).map((share) => share.planId)
      : [],
  );
  const answerOf = new Map(answered.map((a) => [`${a.planId}:${a.userId}`, a.answer as PlanAnswer]));
  return rows.map((row) => {
    // The answers a plan waits on: 'Confirmed' never waits on someone who cannot sign in to give one.
    const members = (people.get(row.conversationId) ?? []).filter((person) => person.deciding);
    const answers = members.map(({ userId, firstName }) => ({ userId, firstName, answer: answerOf.get(`${row.id}:${userId}`) ?? null }));
    const proposer = answers.find((person) => person.userId === row.proposerUserId);
    const said = feedback.filter((f) => f.planId === row.id);
    return {
      id: row.id,
      conversationId: row.conversationId,
      title: row.title,
      startsAt: isoAtPlace(row.startsAt, row.timeZone),
      endsAt: row.endsAt ? isoAtPlace(row.endsAt, row.timeZone) : null,
      timeZone: row.timeZone,
      place: { placeId: row.placeId, name: row.placeName, city: row.placeCity, country: row.placeCountry },
      venue: row.venue,
      note: row.note,
      answers,
      confirmed: row.cancelledAt === null && isConfirmed(answers),
      proposedBy: proposer ? { userId: proposer.userId, firstName: proposer.firstName } : null,
      proposerCoupleId: row.proposerCoupleId,
      cancelledAt: row.cancelledAt?.toISOString() ?? null,
      cancelReason: row.cancelReason,
      sequence: row.sequence,
      yourFeedback: (said.find((f) => f.userId === viewerId)?.answer as FeedbackAnswer | undefined) ?? null,
      // Cancelling revokes the links; an expired one is kept until then but opens nothing.
      sharing:
        shared.has(row.id) &&
        row.cancelledAt === null &&
        shareEndsAt({ startsAt: row.startsAt.toISOString(), endsAt: row.endsAt?.toISOString() ?? null }) > now,
      // 'You met on ...' (lib/plans/feedback.ts): the date at the place, once both couples said 'Great'.
      metOn: row.metConfirmedAt ? row.startsLocal.slice(0, 10) : null,
    };
  });
}

export async function planItem(db: Db, member: ActingCouple, planId: string): Promise<PlanItem> {
  return (await planItems(db, [await memberPlan(db, member, planId)], member.userId))[0]!;
}

/** SQL: not cancelled and not started yet. */
export const upcoming = (now: Date | Placeholder): SQL => and(isNull(plans.cancelledAt), gt(plans.startsAt, now))!;

/** How many plans of the conversation are upcoming (the limit per conversation). */
export async function upcomingCount(db: Db, conversationId: string, now: Date): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(plans)
    .where(and(eq(plans.conversationId, conversationId), upcoming(now)));
  return row?.n ?? 0;
}

/** The most an upcoming list answers: 3 per conversation, the soonest first. */
export const UPCOMING_LIST_MAX = 50;

/** `GET /api/plans?upcoming=1`: the couple's upcoming plans in conversations that have not ended, soonest first. */
export async function upcomingPlans(db: Db, member: ActingCouple, now = new Date()): Promise<PlanItem[]> {
  const rows = await upcomingOfCouple(db).execute({ coupleId: member.coupleId, now: now.toISOString() });
  return planItems(db, rows, member.userId);
}

/** The couple's upcoming plans in conversations that have not ended, soonest first (keyed: named for a JSON read, upcomingPlansSql). */
const upcomingOfCoupleRead = (db: Db, coupleId: SQL, now: Placeholder, keyed = false) =>
  db
    .select(keyed ? keyedFields(planColumns) : planColumns)
    .from(plans)
    .innerJoin(conversations, eq(conversations.id, plans.conversationId))
    .where(and(ofCouple(coupleId), sql`not ${endedSql}`, upcoming(now)))
    .orderBy(asc(plans.startsAt), asc(plans.id))
    .limit(UPCOMING_LIST_MAX);

/** Prepared: the Messages screen reads it on every opening. */
const upcomingOfCouple = preparedPer((db) =>
  upcomingOfCoupleRead(db, placeholderSql("coupleId"), sql.placeholder("now")).prepare("upcoming_plans_of_couple"),
);

/** The JSON rows `upcomingPlansSql` answers: plan rows by their keys, their times as JSON writes them. */
export type UpcomingPlansJson = (Omit<PlanRow, "startsAt" | "endsAt" | "cancelledAt" | "metConfirmedAt"> &
  Record<"startsAt", string> &
  Record<"endsAt" | "cancelledAt" | "metConfirmedAt", string | null>)[];

/**
 * SQL: the rows of upcomingPlans (the couple SQL names; `now` bound as an ISO time) as one JSON array,
 * for a statement that reads them beside something else: the dashboard's overview.
 */
export const upcomingPlansSql = (db: Db, coupleId: SQL, now: Placeholder): SQL<UpcomingPlansJson> => {
  const keyed = upcomingOfCoupleRead(db, coupleId, now, true);
  return jsonArray<UpcomingPlansJson[number]>(keyed, sql`t."startsAt", t.id`, true);
};

/** What `upcomingPlansSql` read, as upcomingPlans answers it. */
export function upcomingPlansOf(
  db: Db,
  rows: UpcomingPlansJson,
  member: Pick<ActingCouple, "userId">,
  now = new Date(),
): Promise<PlanItem[]> {
  const at = (value: string | null) => (value === null ? null : new Date(value));
  const planRows = rows.map((row): PlanRow => ({
    ...row,
    startsAt: new Date(row.startsAt),
    endsAt: at(row.endsAt),
    cancelledAt: at(row.cancelledAt),
    metConfirmedAt: at(row.metConfirmedAt),
  }));
  return planItems(db, planRows, member.userId, now);
}

/**
 * A conversation's plans for its thread: upcoming ones and those of the last 30 days (cancelled
 * ones too), by start. Its open upcoming plans (UPCOMING_PER_CONVERSATION at most) are always
 * among them: the rest of the list, however many plans were cancelled, never pushes one out.
 */
export async function conversationPlans(db: Db, conversationId: string, viewerId: string, now = new Date()): Promise<PlanItem[]> {
  const since = new Date(now.getTime() - 30 * 86_400_000);
  const rows = await plansOfConversationSince(db).execute({ conversationId, now: now.toISOString(), since: since.toISOString() });
  return planItems(db, rows, viewerId);
}

/**
 * Prepared: every opening of a conversation reads it. Two ranges of plans_conversation_starts_idx:
 * the open upcoming plans (no more than the proposals' cap) and the rest, each with its own limit.
 */
const plansOfConversationSince = preparedPer((db) => {
  const ofConversation = eq(plans.conversationId, sql.placeholder("conversationId"));
  const open = upcoming(sql.placeholder("now"));
  const part = (where: SQL | undefined, limit: number) =>
    db.select(planColumns).from(plans).where(where).orderBy(asc(plans.startsAt), asc(plans.id)).limit(limit);
  return unionAll(
    part(and(ofConversation, open), UPCOMING_PER_CONVERSATION),
    part(and(ofConversation, gt(plans.startsAt, sql.placeholder("since")), not(open)), UPCOMING_LIST_MAX - UPCOMING_PER_CONVERSATION),
  )
    .orderBy(asc(plans.startsAt), asc(plans.id))
    .prepare("plans_of_conversation_since");
});

/**
 * 'You met on 14 Dec' on the other couple's profile: the latest plan of the two couples' conversation
 * both said 'Great' about (its date at the place), or null, however many meetups came after it.
 * Only the two couples ever read it.
 */
export async function metOnWith(db: Db, member: ActingCouple, otherCoupleId: string, now = new Date()): Promise<string | null> {
  const rows = await lastMetPlanOfPair(db).execute({ coupleId: member.coupleId, otherCoupleId, now: now.toISOString() });
  return (await planItems(db, rows, member.userId))[0]?.metOn ?? null;
}

/** Prepared: every opening of another couple's profile reads it. */
const lastMetPlanOfPair = preparedPer((db) =>
  db
    .select(planColumns)
    .from(plans)
    .innerJoin(conversations, eq(conversations.id, plans.conversationId))
    .where(
      and(
        ofCouple(placeholderSql("coupleId")),
        ofCouple(placeholderSql("otherCoupleId")),
        isNull(plans.cancelledAt),
        isNotNull(plans.metConfirmedAt),
        lte(plans.startsAt, sql.placeholder("now")),
      ),
    )
    .orderBy(desc(plans.startsAt))
    .limit(1)
    .prepare("last_met_plan_of_pair"),
);

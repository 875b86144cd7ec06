import "server-only";
import { and, eq, isNull, sql, type Column } from "drizzle-orm";
import type { Db } from "@/db/client";
import { sentJustNow, transaction } from "@/db/transaction";
import { planAnswers, plans } from "@/db/schema";
import type { ActingCouple } from "@/lib/membership/acting-couple";
import { AppError } from "@/lib/errors";
import { conversationEndedError, memberConversation, openConversation } from "@/lib/messages/queries";
import { conversationOpening } from "@/lib/messages/thread";
import type { NewNotification } from "@/lib/notifications/rules";
import { createNotifications } from "@/lib/notifications/service";
import { planCancelled } from "@/lib/notifications/types/plan-cancelled";
import { planChanged } from "@/lib/notifications/types/plan-changed";
import { planProposed } from "@/lib/notifications/types/plan-proposed";
import type { PlacesProvider } from "@/lib/places";
import { consumeLimit, limitError, spendLimits } from "@/lib/rate-limit";
import { assertNotRestricted, holdUnrestricted } from "@/lib/safety/sanctions";
import { markCancelled, withdrawReminders } from "./ending";
import { whenAtPlace } from "./format";
import { tellEveryone } from "./live";
import { inputPlace, type PlanPlace } from "./place";
import {
  conversationPlans,
  everyoneIn,
  holdPeopleOf,
  memberPlan,
  planItem,
  planItems,
  upcomingCount,
  type PlanItem,
  type PlanRow,
} from "./queries";
import { rewordsReminders } from "./reminders";
import { PLAN_LIMITS, PLAN_TEXTS, planWindow, UPCOMING_PER_CONVERSATION } from "./rules";
import type { AnswerInput, PlanChange, PlanInput } from "./schemas";

/**
 * Plans between the four people of a conversation (README "Plans"): any of them proposes, changes
 * and answers; the proposing couple cancels. Every write runs in one transaction with its
 * notifications and live rows, and refuses an ended conversation (403) and anyone else (404).
 */

const invalid = (field: string, message: string) => new AppError("VALIDATION_ERROR", message, { fieldErrors: { [field]: message } });

function windowOrThrow(startsLocal: string, endsLocal: string | null, timeZone: string, now: Date) {
  const checked = planWindow(startsLocal, endsLocal, timeZone, now);
  if (!checked.ok) throw invalid(checked.field, checked.message);
  return checked.window;
}

/**
 * The member's plan while it may still change: its conversation open, not cancelled, not started,
 * and, when the writer says which `sequence` they saw, not changed since (409 PLAN_CHANGED): a form
 * opened before another's change, or a 'Going' tapped on a card not yet updated, overwrites nothing.
 */
async function openPlan(tx: Db, member: ActingCouple, planId: string, now: Date, seen?: number, lock = true): Promise<PlanRow> {
  const row = stillOpen(await memberPlan(tx, member, planId, lock), now);
  if (seen !== undefined && seen !== row.sequence) throw new AppError("PLAN_CHANGED", PLAN_TEXTS.changedSince);
  return row;
}

/** A plan read under its lock, refused unless it may still change. */
function stillOpen(row: PlanRow & { ended: boolean }, now: Date): PlanRow {
  if (row.ended) throw conversationEndedError();
  if (row.cancelledAt) throw new AppError("PLAN_CLOSED", PLAN_TEXTS.cancelled);
  if (row.startsAt.getTime() <= now.getTime()) throw new AppError("PLAN_CLOSED", PLAN_TEXTS.started);
  return row;
}

/**
 * Counts a proposal or a change against the person's PLAN_LIMITS (429 with Retry-After), in its
 * transaction: a write refused after it costs nothing.
 */
async function spendPlanWrite(tx: Db, userId: string): Promise<void> {
  for (const limit of [PLAN_LIMITS.perMinute, PLAN_LIMITS.perDay]) {
    const state = await consumeLimit(tx, limit, userId);
    if (!state.allowed) throw limitError(limit, state.retryAfterSeconds);
  }
}

/**
 * After a proposal, change or cancellation: the other three get the notification, with the acting
 * person as its actor, and each of the four gets the card as it is now.
 */
async function tellTheOthers(tx: Db, member: ActingCouple, item: PlanItem, note: Pick<NewNotification, "type" | "title" | "message">) {
  const everyone = (await everyoneIn(tx, [item.conversationId])).get(item.conversationId) ?? [];
  await createNotifications(
    tx,
    everyone
      .filter((userId) => userId !== member.userId)
      .map((userId) => ({
        userId,
        ...note,
        conversationId: item.conversationId,
        planId: item.id,
        actorUserId: member.userId,
        actorCoupleId: member.coupleId,
      })),
  );
  await tellEveryone(
    tx,
    item.id,
    everyone.map((userId) => ({ userId })),
  );
}

/**
 * What a proposal or a change runs with: the caller's address, which pays for a place looked up
 * with them (PlacePayer); the places provider and the clock, for the tests.
 */
export type PlanWriteContext = { clientAddress?: string; places?: PlacesProvider; now?: Date };

/**
 * `POST /api/conversations/{id}/plans`: a plan at a place from the place search, its times the
 * place's wall clock. At most UPCOMING_PER_CONVERSATION upcoming per conversation (409), counted
 * under the conversation's row lock so two proposals cannot both take the last place. The other
 * three are notified; all four get the card live. A restricted couple is refused, and proposals
 * and changes count against PLAN_LIMITS.
 */
export async function proposePlan(
  db: Db,
  member: ActingCouple,
  conversationId: string,
  input: PlanInput,
  { clientAddress, places, now = new Date() }: PlanWriteContext = {},
): Promise<PlanItem> {
  // A restricted couple sends the other couple no words, as with messages (403 ACCOUNT_RESTRICTED):
  // before anything else is answered or looked up, and again inside, below.
  await assertNotRestricted(db, member.coupleId);
  // Membership first: a stranger learns nothing, and costs no place lookup.
  await openConversation(db, member, conversationId);
  // The same plan sent again after the first was proposed costs no second billed place lookup.
  const sentAgain = input.placeId ? await samePlanJustProposed(db, member, conversationId, input, { placeId: input.placeId }) : null;
  if (sentAgain) return planItem(db, member, sentAgain.id);
  const place = await inputPlace(db, input, { userId: member.userId, clientAddress, sessionToken: input.sessionToken }, places);
  const window = windowOrThrow(input.startsAt, input.endsAt, place.timeZone, now);
  const id = await transaction(db, async (tx) => {
    await holdPeopleOf(tx, { conversationId }, member.coupleId);
    // A restriction made while the plan is on its way is waited for, never proposed past: people, couple, then the conversation.
    await holdUnrestricted(tx, member.coupleId);
    await openConversation(tx, member, conversationId, "no key update");
    // Under the conversation's lock: the couple's same plan sent again is the one proposed, not a second.
    const proposed = await samePlanJustProposed(tx, member, conversationId, input, place);
    if (proposed) return proposed.id;
    if ((await upcomingCount(tx, conversationId, now)) >= UPCOMING_PER_CONVERSATION)
      throw new AppError("TOO_MANY_PLANS", PLAN_TEXTS.tooMany);
    await spendPlanWrite(tx, member.userId);
    const [row] = await tx
      .insert(plans)
      .values({
        conversationId,
        proposerUserId: member.userId,
        proposerCoupleId: member.coupleId,
        title: input.title,
        startsLocal: input.startsAt,
        endsLocal: input.endsAt,
        timeZone: place.timeZone,
        ...window,
        ...placeColumns(place),
        venue: input.venue,
        note: input.note,
        noteByUserId: input.note === null ? null : member.userId,
      })
      .returning({ id: plans.id });
    const item = (await planItems(tx, [await memberPlan(tx, member, row!.id)]))[0]!;
    await tellTheOthers(tx, member, item, {
      type: planProposed.type,
      title: planProposed.text.title(item.title),
      message: planProposed.text.message(member.firstName, whenAtPlace(item)),
    });
    return item.id;
  });
  return planItem(db, member, id);
}

/**
 * The couple's open plan in the conversation with the same what, when and where, venue and note,
 * proposed just now (SENT_AGAIN_SECONDS). Before the place is looked up, its id alone names the where.
 */
async function samePlanJustProposed(
  tx: Db,
  member: ActingCouple,
  conversationId: string,
  input: PlanInput,
  place: Pick<PlanPlace, "placeId"> & Partial<Pick<PlanPlace, "name" | "timeZone">>,
) {
  const same = (column: Column, value: string | null) => (value === null ? isNull(column) : eq(column, value));
  const [row] = await tx
    .select({ id: plans.id })
    .from(plans)
    .where(
      and(
        eq(plans.conversationId, conversationId),
        eq(plans.proposerCoupleId, member.coupleId),
        isNull(plans.cancelledAt),
        sentJustNow(plans.createdAt),
        eq(plans.title, input.title),
        eq(plans.startsLocal, input.startsAt),
        same(plans.endsLocal, input.endsAt),
        place.timeZone === undefined ? undefined : eq(plans.timeZone, place.timeZone),
        same(plans.placeId, place.placeId),
        place.name === undefined ? undefined : eq(plans.placeName, place.name),
        same(plans.venue, input.venue),
        same(plans.note, input.note),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** Where a plan is, as a place from the search or typed by hand names it. */
const placeOf = (row: PlanRow): PlanPlace => ({
  placeId: row.placeId,
  name: row.placeName,
  city: row.placeCity,
  country: row.placeCountry,
  timeZone: row.timeZone,
});

const placeColumns = (place: PlanPlace) => ({
  placeId: place.placeId,
  placeName: place.name,
  placeCity: place.city,
  placeCountry: place.country,
});

/** What a change says it changed: 'the time', 'the place and the note'. */
function changedWords(before: PlanRow, after: Partial<PlanRow>): string {
  const names: [keyof PlanRow, string][] = [
    ["title", "what you plan"],
    ["startsLocal", "the time"],
    ["endsLocal", "the end time"],
    ["placeId", "the place"],
    ["placeName", "the place"],
    ["timeZone", "the place"],
    ["venue", "the venue"],
    ["note", "the note"],
  ];
  const words = [...new Set(names.filter(([key]) => key in after && after[key] !== before[key]).map(([, word]) => word))];
  return words.length <= 1 ? (words[0] ?? "the plan") : `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;
}

/**
 * `PATCH /api/plans/{id}`: any of the four changes what, when or where, or the note (a cancelled,
 * started or since-changed plan refuses with 409). Changing what, when or where asks everyone
 * again: the answers go back to 'not yet'; a note alone keeps them. Either way the sequence rises,
 * and the other three are told what changed. A moved time, or new words for what a reminder
 * quotes (rewordsReminders: the what, place or venue), takes the reminders sent from the bells and
 * outboxes (withdrawReminders), and the plan's are due again as it now is.
 * Sending what is already there changes nothing (and costs nothing of PLAN_LIMITS).
 */
export async function changePlan(
  db: Db,
  member: ActingCouple,
  planId: string,
  change: PlanChange,
  { clientAddress, places, now = new Date() }: PlanWriteContext = {},
): Promise<PlanItem> {
  // A restricted couple rewrites nothing it could not write (403 ACCOUNT_RESTRICTED): before
  // anything else is answered or looked up, and again inside, below.
  await assertNotRestricted(db, member.coupleId);
  // The search session names no change: it only goes with the place's lookup.
  const { sequence: seen, sessionToken, ...fields } = change;
  // Checked before the place lookup as again under the lock: a closed or since-changed plan costs none.
  const before = await openPlan(db, member, planId, now, seen, false);
  if (Object.values(fields).every((value) => value === undefined)) throw new AppError("VALIDATION_ERROR", PLAN_TEXTS.nothingChanged);
  const moves =
    (change.placeId !== undefined && change.placeId !== before.placeId) ||
    (change.placeName && (change.placeName !== before.placeName || change.timeZone !== before.timeZone || before.placeId !== null));
  const names = change.placeId !== undefined || Boolean(change.placeName);
  // The place the change names: looked up (billed) only when it is not the plan's as read here, else
  // the plan's own. Whether it moves the plan is decided against the locked row below: another's
  // change may have moved it meanwhile, and a change sent without `sequence` still goes where it says.
  const payer = { userId: member.userId, clientAddress, sessionToken };
  const place = moves ? await inputPlace(db, change, payer, places) : names ? placeOf(before) : null;
  await transaction(db, async (tx) => {
    await holdPeopleOf(tx, { planId }, member.coupleId);
    // A restriction made while the change is on its way is waited for: people, couple, then the plan.
    await holdUnrestricted(tx, member.coupleId);
    const row = await openPlan(tx, member, planId, now, seen);
    const timeZone = place?.timeZone ?? row.timeZone;
    const startsLocal = change.startsAt ?? row.startsLocal;
    const endsLocal = change.endsAt !== undefined ? change.endsAt : row.endsLocal;
    const after: Partial<PlanRow> = {
      ...(change.title !== undefined && { title: change.title }),
      ...(change.venue !== undefined && { venue: change.venue }),
      ...(change.note !== undefined && { note: change.note }),
      ...(place && { ...placeColumns(place), timeZone }),
      startsLocal,
      endsLocal,
    };
    const changed = (Object.keys(after) as (keyof PlanRow)[]).filter((key) => after[key] !== row[key]);
    if (changed.length === 0) return;
    const asksAgain = changed.some((key) => key !== "note");
    const window = windowOrThrow(startsLocal, endsLocal, timeZone, now);
    // Moved, the reminders' times are other ones; reworded, those sent quote the old words.
    const stale = window.startsAt.getTime() !== row.startsAt.getTime() || rewordsReminders(row, { ...row, ...after, ...window });
    await spendPlanWrite(tx, member.userId);
    // The reminders sent go (found before the change, by the what they were written with), and the
    // plan as it now is is reminded afresh.
    if (stale) await withdrawReminders(tx, [planId]);
    await tx
      .update(plans)
      .set({
        ...after,
        ...(changed.includes("note") && { noteByUserId: after.note === null ? null : member.userId }),
        ...window,
        sequence: sql`${plans.sequence} + 1`,
        updatedAt: sql`now()`,
        ...(stale && { eveningRemindedAt: null, soonRemindedAt: null }),
      })
      .where(eq(plans.id, planId));
    if (asksAgain) await tx.delete(planAnswers).where(eq(planAnswers.planId, planId));
    const item = (await planItems(tx, [await memberPlan(tx, member, planId)]))[0]!;
    const what = changedWords(row, after);
    await tellTheOthers(tx, member, item, {
      type: planChanged.type,
      title: planChanged.text.title(item.title),
      message: planChanged.text.message(member.firstName, what, asksAgain),
    });
  });
  return planItem(db, member, planId);
}

/**
 * `DELETE /api/plans/{id}`: the proposer or their partner cancels it, with an optional reason
 * (the other couple gets 403). The sequence rises, so a calendar that imported it marks it
 * cancelled, and a shared link stops working; the other three are told. Cancelling it again
 * answers it as it is. A restricted couple may still cancel, but without a reason.
 */
export async function cancelPlan(db: Db, member: ActingCouple, planId: string, reason: string | null, now = new Date()): Promise<PlanItem> {
  // The reason reaches the other couple by notification, e-mail and push: words a restriction withholds
  // (403 ACCOUNT_RESTRICTED), before anything else is answered, and again inside, below.
  if (reason) await assertNotRestricted(db, member.coupleId);
  const already = await memberPlan(db, member, planId);
  if (already.proposerCoupleId !== member.coupleId) throw new AppError("FORBIDDEN", PLAN_TEXTS.notProposer);
  if (already.cancelledAt) return planItem(db, member, planId);
  await transaction(db, async (tx) => {
    await holdPeopleOf(tx, { planId }, member.coupleId);
    // A restriction made while the reason is on its way is waited for: people, couple, then the plan.
    if (reason) await holdUnrestricted(tx, member.coupleId);
    const row = await memberPlan(tx, member, planId, true);
    // Cancelled at the same instant (the partner, another tab): answered as a repeat is, told once.
    if (row.cancelledAt) return;
    stillOpen(row, now);
    await markCancelled(tx, eq(plans.id, planId), now, reason ? { text: reason, byUserId: member.userId } : null);
    const item = (await planItems(tx, [await memberPlan(tx, member, planId)]))[0]!;
    await tellTheOthers(tx, member, item, {
      type: planCancelled.type,
      title: planCancelled.text.title(item.title),
      message: planCancelled.text.message(member.firstName, reason),
    });
  });
  return planItem(db, member, planId);
}

/** `PUT /api/plans/{id}/answer`: going, maybe or can't, changed at will until it starts (PLAN_LIMITS.answersPerHour); all four see it live. */
export async function answerPlan(
  db: Db,
  member: ActingCouple,
  planId: string,
  { answer, sequence }: AnswerInput,
  now = new Date(),
): Promise<PlanItem> {
  await spendLimits(db, [[PLAN_LIMITS.answersPerHour, member.userId]]);
  await transaction(db, async (tx) => {
    await holdPeopleOf(tx, { planId }, member.coupleId);
    await openPlan(tx, member, planId, now, sequence);
    await tx
      .insert(planAnswers)
      .values({ planId, userId: member.userId, answer })
      .onConflictDoUpdate({ target: [planAnswers.planId, planAnswers.userId], set: { answer, answeredAt: sql`now()` } });
    const item = (await planItems(tx, [await memberPlan(tx, member, planId)]))[0]!;
    await tellEveryone(tx, planId, item.answers);
  });
  return planItem(db, member, planId);
}

/** The conversation's plans for its thread (the member's conversation, ended or not). */
export async function plansOfConversation(db: Db, member: ActingCouple, conversationId: string): Promise<PlanItem[]> {
  await memberConversation(db, member, conversationId);
  return conversationPlans(db, conversationId, member.userId);
}

/**
 * The conversation screen's first paint: its opening (the detail and newest `limit` messages, which
 * checks the membership) and its plans, read side by side. The plans leave only with an opening:
 * what is not the member's conversation answers NOT_FOUND, its plans dropped unread.
 */
export async function openConversationWithPlans(db: Db, member: ActingCouple, conversationId: string, limit: number) {
  const [opening, plans] = await Promise.all([
    conversationOpening(db, member, conversationId, limit),
    conversationPlans(db, conversationId, member.userId),
  ]);
  return { ...opening, plans };
}

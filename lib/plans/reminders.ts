import "server-only";
import { and, eq, gt, inArray, isNull, lte, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { conversations, couples, planAnswers, plans, users } from "@/db/schema";
import { mayReceive } from "@/lib/messages/access";
import { decidingPartner2Id, secondPartner } from "@/lib/membership/partner";
import { createNotifications } from "@/lib/notifications/service";
import { planFeedback } from "@/lib/notifications/types/plan-feedback";
import { planReminder } from "@/lib/notifications/types/plan-reminder";
import { placeLine, whenAtPlace } from "./format";
import { holdPeopleOf, planColumns, type PlanRow } from "./queries";
import { endedSql } from "@/lib/messages/queries";
import { DEFAULT_LENGTH_HOURS } from "./rules";
import { isoAtPlace } from "./time";

/**
 * The reminders of plans (README "Plans"), from the scheduled work (lib/scheduled): the evening before at
 * 18:00 in the plan's zone, and two hours before, to those going or maybe, through their channels.
 * Each is claimed by setting its column in the run's transaction (under the due work's lock), so
 * two instances never send one twice; a change of what they quote clears them (lib/plans/service.ts).
 */

const HOUR = 3_600_000;
export const SOON_HOURS = 2;
/**
 * The evening before is at most this long before the start: 18:00 the day before a 23:59 plan is
 * 30 hours less a minute, and 31 less a minute across the night the clocks go back.
 */
const EVENING_WINDOW_HOURS = 31;

/** SQL: midnight starting the plan's day at the place, as an instant (Postgres has the same zone data). */
const dayOfPlan = sql`(substr(${plans.startsLocal}, 1, 10)::date + time '00:00') at time zone ${plans.timeZone}`;
/** SQL: 18:00 on the day before the plan, at the place, as an instant. */
const eveningBefore = sql`((substr(${plans.startsLocal}, 1, 10)::date - 1) + time '18:00') at time zone ${plans.timeZone}`;

/**
 * SQL: someone is going or maybe. A plan nobody has said yes to yet (just proposed, or just changed,
 * which asks everyone again) keeps its reminder for the run after the first yes, never spends it on no one.
 */
const someoneComing = sql`exists (select 1 from ${planAnswers} where ${planAnswers.planId} = ${plans.id} and ${planAnswers.answer} in ('going', 'maybe'))`;

/**
 * The most plans one run claims for each of its two kinds of work (reminders, 'How was it?'), so a
 * run stays short under the due work's lock whatever the backlog; the next run (a minute on) takes
 * the rest, earliest first.
 */
export const PLANS_PER_RUN = 200;

/**
 * The ids of the first `limit` plans matching `where`, earliest start first, read without a lock:
 * what a run may claim next (claimAmong), their people held first (holdPeopleOfPlans).
 */
async function nextDue(tx: Db, where: SQL | undefined, limit: number): Promise<string[]> {
  if (limit <= 0) return [];
  const first = await tx.select({ id: plans.id }).from(plans).where(where).orderBy(plans.startsAt).limit(limit);
  return first.map((row) => row.id);
}

/**
 * The people of the plans a run is about to claim, held before any plan is (holdPeopleOf): an
 * account's deletion takes the person's row and then cancels or writes their plans, so a run that
 * claimed a plan and then waited on the person (the notice's foreign key) would deadlock with it.
 */
async function holdPeopleOfPlans(tx: Db, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await holdPeopleOf(tx, { conversationIds: sql`select ${plans.conversationId} from ${plans} where ${inArray(plans.id, [...ids])}` });
}

/**
 * SQL: the plan is one of `ids` (nextDue's, whose people the run holds) still matching `where`,
 * locked for the claim; rows another transaction holds are skipped, not waited for (the due work's
 * lock already keeps runs apart), and left with the rest for the next run: a run never claims a
 * plan whose people it did not hold first. As an array, so the update reads the claimed rows by
 * key, never scans plans.
 */
const claimAmong = (tx: Db, ids: readonly string[], where: SQL | undefined) =>
  sql`${plans.id} = any(array(${tx
    .select({ id: plans.id })
    .from(plans)
    .where(and(inArray(plans.id, [...ids]), where))
    .for("update", { skipLocked: true })}))`;

/** SQL: the plans whose reminder falls due now: 'soon', and 'evening' when not also due the soon one (that one says it all). */
function dueNow(now: Date) {
  const soonFrom = new Date(now.getTime() + SOON_HOURS * HOUR);
  const open = and(isNull(plans.cancelledAt), gt(plans.startsAt, now), someoneComing);
  return {
    soon: and(open, lte(plans.startsAt, soonFrom), isNull(plans.soonRemindedAt)),
    evening: and(
      open,
      gt(plans.startsAt, soonFrom),
      lte(plans.startsAt, new Date(now.getTime() + EVENING_WINDOW_HOURS * HOUR)),
      isNull(plans.eveningRemindedAt),
      sql`${eveningBefore} <= ${now.toISOString()}::timestamptz`,
      // Said 'Tomorrow': not once the plan's day has begun (one made that morning gets 'Soon' only).
      sql`${now.toISOString()}::timestamptz < ${dayOfPlan}`,
    ),
  };
}

/**
 * The plans whose reminder falls due now, at most PLANS_PER_RUN ('soon' first), claimed, the
 * people of each held first.
 */
async function claim(tx: Db, now: Date) {
  const due = dueNow(now);
  const soonIds = await nextDue(tx, due.soon, PLANS_PER_RUN);
  const eveningIds = await nextDue(tx, due.evening, PLANS_PER_RUN - soonIds.length);
  await holdPeopleOfPlans(tx, [...soonIds, ...eveningIds]);
  const soon =
    soonIds.length === 0
      ? []
      : await tx
          .update(plans)
          .set({ soonRemindedAt: now, eveningRemindedAt: sql`coalesce(${plans.eveningRemindedAt}, ${now.toISOString()}::timestamptz)` })
          .where(claimAmong(tx, soonIds, due.soon))
          .returning({ id: plans.id });
  const evening =
    eveningIds.length === 0
      ? []
      : await tx
          .update(plans)
          .set({ eveningRemindedAt: now })
          .where(claimAmong(tx, eveningIds, due.evening))
          .returning({ id: plans.id });
  return [...soon.map(({ id }) => ({ id, kind: "soon" as const })), ...evening.map(({ id }) => ({ id, kind: "evening" as const }))];
}

/** '19:30 in Lisbon today' / 'tomorrow'. */
const whenWords = (plan: PlanRow, kind: "soon" | "evening") => {
  const shown = {
    startsAt: isoAtPlace(plan.startsAt, plan.timeZone),
    timeZone: plan.timeZone,
    place: { name: plan.placeName, city: plan.placeCity },
  };
  return `${kind === "soon" ? "Soon" : "Tomorrow"}: ${whenAtPlace(shown)}`;
};

/** A reminder's words: the plan's what, when (whenWords) and where (placeLine). */
function reminderText(plan: PlanRow, kind: "soon" | "evening") {
  const where = placeLine({ place: { name: plan.placeName, city: plan.placeCity }, venue: plan.venue, timeZone: plan.timeZone });
  return { title: planReminder.text.title(plan.title), message: planReminder.text.message(whenWords(plan, kind), where) };
}

/**
 * Whether a change of the plan rewords its reminders (lib/plans/service.ts changePlan): one sent
 * before it quotes what the plan no longer says (its what, time, place or venue; not its note or end).
 */
export const rewordsReminders = (before: PlanRow, after: PlanRow): boolean =>
  (["soon", "evening"] as const).some((kind) => {
    const [was, now] = [reminderText(before, kind), reminderText(after, kind)];
    return was.title !== now.title || was.message !== now.message;
  });

/** How long after a meetup 'How was it?' is still asked (a run missed for days does not ask about old plans). */
const FEEDBACK_WITHIN_DAYS = 7;

/**
 * 'How was it?' once, to each of the four who may still receive the conversation, from a meetup's
 * end (or start plus DEFAULT_LENGTH_HOURS); claimed by `feedback_asked_at` like the reminders (the
 * people held first), at most PLANS_PER_RUN plans a run. Nothing of a plan is sent once its
 * conversation has ended (a block, a suspension or a couple gone after the meetup started): the
 * plan is claimed, nobody asked.
 * Not asked: who said they can't come (they were not there), and anyone when every partner of one
 * couple whose answer counts (decidingPartner2Id) said so (the meetup did not take place).
 */
export async function askHowItWent(tx: Db, now: Date): Promise<number> {
  const ended = sql`coalesce(${plans.endsAt}, ${plans.startsAt} + ${`${DEFAULT_LENGTH_HOURS} hours`}::interval)`;
  const due = and(
    isNull(plans.cancelledAt),
    isNull(plans.feedbackAskedAt),
    // The index's range first (a plan lasts at most a day), then its end: over, and not longer ago than FEEDBACK_WITHIN_DAYS.
    lte(plans.startsAt, now),
    gt(plans.startsAt, new Date(now.getTime() - (FEEDBACK_WITHIN_DAYS + 1) * 24 * HOUR)),
    sql`${ended} <= ${now.toISOString()}::timestamptz`,
    sql`${ended} > ${new Date(now.getTime() - FEEDBACK_WITHIN_DAYS * 24 * HOUR).toISOString()}::timestamptz`,
  );
  const ids = await nextDue(tx, due, PLANS_PER_RUN);
  if (ids.length === 0) return 0;
  await holdPeopleOfPlans(tx, ids);
  const asked = await tx
    .update(plans)
    .set({ feedbackAskedAt: now })
    .where(claimAmong(tx, ids, due))
    .returning({ id: plans.id, title: plans.title, conversationId: plans.conversationId });
  if (asked.length === 0) return 0;
  const people = await tx
    .select({
      conversationId: conversations.id,
      coupleId: couples.id,
      userId: users.id,
      // Whose answer counts for their couple (not a partner 2 who cannot sign in to give one).
      deciding: sql<boolean>`coalesce(${users.id} in (${couples.partner1Id}, ${decidingPartner2Id}), false)`,
    })
    .from(conversations)
    .innerJoin(couples, sql`${couples.id} in (${conversations.coupleLowId}, ${conversations.coupleHighId})`)
    .leftJoin(secondPartner, eq(secondPartner.id, couples.partner2Id))
    .innerJoin(users, sql`${users.id} in (${couples.partner1Id}, ${couples.partner2Id})`)
    .where(
      and(inArray(conversations.id, [...new Set(asked.map((p) => p.conversationId))]), sql`not ${endedSql}`, mayReceive(sql`${users.id}`)),
    );
  const cant = await tx
    .select({ planId: planAnswers.planId, userId: planAnswers.userId })
    .from(planAnswers)
    .where(
      and(
        inArray(
          planAnswers.planId,
          asked.map((plan) => plan.id),
        ),
        eq(planAnswers.answer, "cant"),
      ),
    );
  const cantOf = Map.groupBy(cant, (answer) => answer.planId);
  const peopleOf = Map.groupBy(people, (person) => person.conversationId);
  const told = asked.flatMap((plan) => {
    const absent = new Set((cantOf.get(plan.id) ?? []).map((answer) => answer.userId));
    const four = peopleOf.get(plan.conversationId) ?? [];
    const byCouple = Map.groupBy(four, (person) => person.coupleId);
    const noneCame = (partners: typeof four) => partners.filter((person) => person.deciding).every((person) => absent.has(person.userId));
    if ([...byCouple.values()].some(noneCame)) return [];
    return four
      .filter((person) => !absent.has(person.userId))
      .map((person) => ({
        userId: person.userId,
        type: planFeedback.type,
        title: planFeedback.text.title(plan.title),
        message: planFeedback.text.message,
        conversationId: plan.conversationId,
        planId: plan.id,
      }));
  });
  await createNotifications(tx, told);
  return told.length;
}

/** Sends the reminders due at `now` in the caller's transaction; answers how many people were reminded. */
export async function sendPlanReminders(tx: Db, now: Date): Promise<number> {
  const due = await claim(tx, now);
  if (due.length === 0) return 0;
  const ids = due.map((d) => d.id);
  const rows = await tx.select(planColumns).from(plans).where(inArray(plans.id, ids));
  const byId = new Map(rows.map((row) => [row.id, row]));
  // Those going or maybe who may still receive the conversation (members, no block between the couples),
  // while it has not ended: a plan left standing in an ended conversation reminds nobody.
  // The plans too are narrowed by the ids (Postgres carries no IN list across a join), so plans and
  // then conversations are read by key, never scanned whole.
  const recipients = await tx
    .select({ planId: planAnswers.planId, userId: planAnswers.userId })
    .from(planAnswers)
    .innerJoin(plans, eq(plans.id, planAnswers.planId))
    .innerJoin(conversations, eq(conversations.id, plans.conversationId))
    .where(
      and(
        inArray(planAnswers.planId, ids),
        inArray(plans.id, ids),
        inArray(planAnswers.answer, ["going", "maybe"]),
        sql`not ${endedSql}`,
        mayReceive(sql`${planAnswers.userId}`),
      ),
    );
  const told = due.flatMap(({ id, kind }) => {
    const plan = byId.get(id)!;
    const text = reminderText(plan, kind);
    return recipients
      .filter((recipient) => recipient.planId === id)
      .map((recipient) => ({
        userId: recipient.userId,
        type: planReminder.type,
        ...text,
        conversationId: plan.conversationId,
        planId: plan.id,
      }));
  });
  // Everyone of the run at once: a few statements for the run, not a few per person.
  await createNotifications(tx, told);
  return told.length;
}

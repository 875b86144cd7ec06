import "server-only";
import { and, arrayOverlaps, eq, inArray, isNull, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { conversations, emailOutbox, notifications, plans, pushOutbox, pushSubscriptions } from "@/db/schema";
import { publishLive } from "@/lib/live/publish";
import { ofCouple } from "@/lib/messages/access";
import { createNotifications, withdrawNotifications, type WaitingCopies } from "@/lib/notifications/service";
import { planCancelled } from "@/lib/notifications/types/plan-cancelled";
import { planChanged } from "@/lib/notifications/types/plan-changed";
import { planFeedback } from "@/lib/notifications/types/plan-feedback";
import { planProposed } from "@/lib/notifications/types/plan-proposed";
import { planReminder } from "@/lib/notifications/types/plan-reminder";
import { PLAN } from "./live";
import { revokeShares } from "./share";
import { everyoneIn, holdPeopleOf, planItems, planColumns, upcoming, type PlanItem } from "./queries";
import { PLAN_TEXTS } from "./rules";

/**
 * What cancelling plans writes, whoever cancels them, in the caller's transaction (their people
 * held first, holdPeopleOf): the sequence rises (a calendar marks them cancelled), a reason is
 * kept with who gave it, their shared links stop working as 'Stop sharing' makes them, and their
 * reminders already sent leave the bells, with their copies still waiting (withdrawReminders).
 * Answers the ids cancelled.
 */
export async function markCancelled(
  tx: Db,
  which: SQL,
  now: Date,
  reason: { text: string; byUserId: string } | null = null,
): Promise<string[]> {
  const cancelled = await tx
    .update(plans)
    .set({
      cancelledAt: now,
      cancelReason: reason?.text ?? null,
      cancelledByUserId: reason?.byUserId ?? null,
      sequence: sql`${plans.sequence} + 1`,
      updatedAt: sql`now()`,
    })
    .where(which)
    .returning({ id: plans.id });
  const ids = cancelled.map((row) => row.id);
  await revokeShares(tx, ids);
  await withdrawReminders(tx, ids);
  return ids;
}

/**
 * Plans that can no longer take place, cancelled in the caller's transaction: a block either way,
 * a moderator's suspension or ban of a couple or removal of a reported plan, an account's deletion.
 * The cards of all four change live. `tell` names who gets the notification: after a
 * block nobody (the blocked couple learns nothing of it from us), otherwise the people left.
 */
async function cancelWhere(tx: Db, which: SQL, tell: (userId: string) => boolean, now: Date): Promise<void> {
  const cancelled = await markCancelled(tx, and(upcoming(now), which)!, now);
  if (cancelled.length === 0) return;
  const rows = await tx.select(planColumns).from(plans).where(inArray(plans.id, cancelled));
  const items = await planItems(tx, rows);
  const everyone = await everyoneIn(tx, [...new Set(items.map((item) => item.conversationId))]);
  const peopleOf = (item: PlanItem) => everyone.get(item.conversationId) ?? [];
  // One list of notices and one of live rows for every plan cancelled (a couple's deletion may end many).
  await createNotifications(
    tx,
    items.flatMap((item) =>
      peopleOf(item)
        .filter(tell)
        .map((userId) => ({
          userId,
          type: planCancelled.type,
          title: planCancelled.text.title(item.title),
          message: planCancelled.text.ended,
          conversationId: item.conversationId,
          planId: item.id,
        })),
    ),
  );
  await publishLive(
    tx,
    items.flatMap((item) => peopleOf(item).map((userId) => ({ userId, kind: PLAN, subjectId: item.id }))),
  );
}

/** SQL: the plan is in one of the conversations the SQL selects (the id column of `conversations`). */
const inConversations = (where: SQL): SQL =>
  inArray(plans.conversationId, sql`(select ${conversations.id} from ${conversations} where ${where})`);

/**
 * A block either way: the two couples' upcoming plans, silently (their reminders withdrawn as they
 * are cancelled, markCancelled), and the reminders still in the four's bells of those it does not
 * cancel, a meetup begun or past: the block erases those still waiting as pushes and e-mails
 * (lib/notifications/moderation.ts), and the bell hides only what the other couple did (`own`),
 * which a reminder names no one for. 'How was it?' stays: answering it is how either couple tells
 * of a meetup gone wrong and reports it (lib/plans/feedback.ts), after a block too.
 */
export async function cancelPlansBetween(tx: Db, one: string, other: string, now = new Date()): Promise<void> {
  const [low, high] = one < other ? [one, other] : [other, one];
  const between = and(eq(conversations.coupleLowId, low), eq(conversations.coupleHighId, high))!;
  await cancelWhere(tx, inConversations(between), () => false, now);
  const [conversation] = await tx.select({ id: conversations.id }).from(conversations).where(between);
  if (!conversation) return;
  const people = (await everyoneIn(tx, [conversation.id])).get(conversation.id) ?? [];
  await withdrawNotifications(
    tx,
    and(
      inArray(notifications.userId, people),
      eq(notifications.conversationId, conversation.id),
      eq(notifications.type, planReminder.type),
    )!,
  );
}

/**
 * A couple that can no longer meet (suspended or banned, or a partner's account deleted): its upcoming plans
 * with every couple, the other couples told. Runs before the person's rows go, so all are named.
 */
export async function cancelPlansOfCouple(tx: Db, coupleId: string, leaving: readonly string[], now = new Date()): Promise<void> {
  const ofTheCouple = inConversations(ofCouple(coupleId));
  // The people its notices name, before the plans (holdPeopleOf): a partner of the other couple
  // deleting their account holds their row, then cancels these same plans.
  await holdPeopleOf(tx, { conversationIds: sql`select ${plans.conversationId} from ${plans} where ${and(upcoming(now), ofTheCouple)}` });
  await cancelWhere(tx, ofTheCouple, (userId) => !leaving.includes(userId), now);
}

/** The plan notices' titles, each with the plan's what (lib/notifications/types/plan-*.ts). */
const PLAN_NOTICES = [planProposed, planChanged, planCancelled, planReminder, planFeedback];

/**
 * The notifications of a plan (of the `kinds` given, every plan notice unless told), and their
 * copies still waiting to leave (pushes, e-mails): by the plan's id, never by its words, which
 * another plan may share; its people's alone. A notice written before notices named their plan
 * (migration 0068) is found by its exact title in the plan's conversation, as it was then. In the
 * app, both by index (notifications_plan_idx, notifications_conversation_idx), not through the
 * people's whole bells.
 */
function noticesOfPlan(
  people: string[],
  plan: { id: string; conversationId: string; title: string },
  kinds: readonly (typeof PLAN_NOTICES)[number][] = PLAN_NOTICES,
): { inApp: SQL; waiting: WaitingCopies } {
  const types = kinds.map((definition) => definition.type);
  const titled = kinds.map((definition) => definition.text.title(plan.title));
  return {
    inApp: and(
      inArray(notifications.userId, people),
      inArray(notifications.type, types),
      or(
        eq(notifications.planId, plan.id),
        and(isNull(notifications.planId), eq(notifications.conversationId, plan.conversationId), inArray(notifications.title, titled)),
      ),
    )!,
    waiting: {
      pushes: and(
        sql`${pushOutbox.subscriptionId} = any(array(select ${pushSubscriptions.id} from ${pushSubscriptions} where ${inArray(pushSubscriptions.userId, people)}))`,
        eq(pushOutbox.planId, plan.id),
        inArray(pushOutbox.type, types),
      )!,
      mail: and(
        arrayOverlaps(emailOutbox.aboutUserIds, people),
        eq(emailOutbox.planId, plan.id),
        inArray(emailOutbox.notificationType, types),
      )!,
    },
  };
}

/**
 * The reminders of plans that will not take place as they said (cancelled, or moved to another
 * time), taken from the bells of the four with their pushes and e-mails still waiting: the one
 * withdrawal a removed plan's notices get (noticesOfPlan), narrowed to its reminders, so a
 * 'Coming up' never outlives its plan or its time. In the caller's transaction, the people held first.
 */
export async function withdrawReminders(tx: Db, planIds: readonly string[]): Promise<void> {
  if (planIds.length === 0) return;
  const rows = await tx
    .select({ id: plans.id, conversationId: plans.conversationId, title: plans.title })
    .from(plans)
    .where(inArray(plans.id, [...planIds]));
  const everyone = await everyoneIn(tx, [...new Set(rows.map((row) => row.conversationId))]);
  const notices = rows.map((plan) => noticesOfPlan(everyone.get(plan.conversationId) ?? [], plan, [planReminder]));
  await withdrawNotifications(tx, or(...notices.map((notice) => notice.inApp))!, {
    pushes: or(...notices.map((notice) => notice.waiting.pushes))!,
    mail: or(...notices.map((notice) => notice.waiting.mail))!,
  });
}

/**
 * A moderator removed a reported plan (after the meetup, 'Something went wrong', or before it):
 * its words are erased, whenever it was, as a removed message's are: its what and a place typed by
 * hand read PLAN_TEXTS.removed, its venue, note and cancelling reason go, its shared links stop,
 * and its notifications and their waiting copies are withdrawn (noticesOfPlan: however it was
 * named when they were sent; another plan of the same what keeps its own). What the four agreed on
 * otherwise (the time, a place from the search) stays. Still to come, it is then cancelled, all
 * four told it can no longer take place.
 */
export async function removePlan(tx: Db, planId: string, now = new Date()): Promise<void> {
  const [plan] = await tx
    .select({ id: plans.id, conversationId: plans.conversationId, title: plans.title })
    .from(plans)
    .where(eq(plans.id, planId))
    .for("update");
  if (!plan) return;
  const people = (await everyoneIn(tx, [plan.conversationId])).get(plan.conversationId) ?? [];
  const notices = noticesOfPlan(people, plan);
  await withdrawNotifications(tx, notices.inApp, notices.waiting);
  await tx
    .update(plans)
    .set({
      title: PLAN_TEXTS.removed,
      placeName: sql`case when ${plans.placeId} is null then ${PLAN_TEXTS.removed} else ${plans.placeName} end`,
      venue: null,
      note: null,
      noteByUserId: null,
      cancelReason: null,
      cancelledByUserId: null,
      sequence: sql`${plans.sequence} + 1`,
      updatedAt: sql`now()`,
    })
    .where(eq(plans.id, planId));
  await revokeShares(tx, [planId]);
  await publishLive(
    tx,
    people.map((userId) => ({ userId, kind: PLAN, subjectId: planId })),
  );
  await cancelWhere(tx, eq(plans.id, planId), () => true, now);
}

/**
 * Deleting an account erases the person's words in plans, in its transaction: each note they
 * wrote as it stands (whoever proposed the plan; a note another rewrote is theirs) and the reason
 * they gave for cancelling one. What the four agreed (the title, the time, the place) stays
 * theirs; the answers go with the person's rows.
 */
export async function erasePlanWordsOf(tx: Db, userId: string): Promise<void> {
  await tx.update(plans).set({ note: null }).where(eq(plans.noteByUserId, userId));
  await tx.update(plans).set({ cancelReason: null, cancelledByUserId: null }).where(eq(plans.cancelledByUserId, userId));
}

import "server-only";
import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { conversations, plans } from "@/db/schema";
import { publishLive } from "@/lib/live/publish";
import { ofCouple } from "@/lib/messages/access";
import { createNotifications } from "@/lib/notifications/service";
import { planCancelled } from "@/lib/notifications/types/plan-cancelled";
import { PLAN } from "./live";
import { revokeShares } from "./share";
import { everyoneIn, planItems, planColumns, upcoming, type PlanItem } from "./queries";

/**
 * What cancelling plans writes, whoever cancels them, in the caller's transaction: the sequence
 * rises (a calendar marks them cancelled), a reason is kept with who gave it, and their shared
 * links stop working as 'Stop sharing' makes them. Answers the ids cancelled.
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

/** A block either way: the two couples' upcoming plans, silently. */
export async function cancelPlansBetween(tx: Db, one: string, other: string, now = new Date()): Promise<void> {
  const [low, high] = one < other ? [one, other] : [other, one];
  await cancelWhere(tx, inConversations(and(eq(conversations.coupleLowId, low), eq(conversations.coupleHighId, high))!), () => false, now);
}

/**
 * A couple that can no longer meet (suspended or banned, or a partner's account deleted): its upcoming plans
 * with every couple, the other couples told. Runs before the person's rows go, so all are named.
 */
export async function cancelPlansOfCouple(tx: Db, coupleId: string, leaving: readonly string[], now = new Date()): Promise<void> {
  await cancelWhere(tx, inConversations(ofCouple(coupleId)), (userId) => !leaving.includes(userId), now);
}

/** A moderator removed a reported plan: cancelled when still to come, all four told it can no longer take place. */
export async function cancelRemovedPlan(tx: Db, planId: string, now = new Date()): Promise<void> {
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

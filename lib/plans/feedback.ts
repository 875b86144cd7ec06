import "server-only";
import { spendLimits } from "@/lib/rate-limit";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { oneAtATime, transaction } from "@/db/transaction";
import { planAnswers, planFeedback, plans } from "@/db/schema";
import type { ActingCouple } from "@/lib/membership/acting-couple";
import { decidingPartners } from "@/lib/membership/partner";
import { keepApart } from "@/lib/discover/service";
import { AppError } from "@/lib/errors";
import { memberConversation, membersOf } from "@/lib/messages/queries";
import { endOf } from "./calendar";
import { tellEveryone } from "./live";
import { holdPeopleOf, memberPlan } from "./queries";
import { PLAN_LIMITS, PLAN_TEXTS, type FeedbackAnswer } from "./rules";

/**
 * 'How was it?' after the meetup: each person's private answer, never shown to the other couple.
 * 'Not for us' from both partners of a couple keeps the two couples out of each other's discover
 * suggestions; 'Something went wrong' answers the plan to report (the report flow opens on it, naming the other couple).
 * Counts against PLAN_LIMITS.answersPerHour.
 */
export async function giveFeedback(
  db: Db,
  member: ActingCouple,
  planId: string,
  answer: FeedbackAnswer,
  now = new Date(),
): Promise<{ answer: FeedbackAnswer; report: { targetType: "plan"; targetId: string } | null }> {
  await spendLimits(db, [[PLAN_LIMITS.answersPerHour, member.userId]]);
  const plan = await memberPlan(db, member, planId);
  if (plan.cancelledAt) throw new AppError("PLAN_CLOSED", PLAN_TEXTS.cancelled);
  if (endOf({ startsAt: plan.startsAt.toISOString(), endsAt: plan.endsAt?.toISOString() ?? null }).getTime() > now.getTime())
    throw new AppError("PLAN_CLOSED", PLAN_TEXTS.notYetMet);
  const { otherCoupleId } = await memberConversation(db, member, plan.conversationId);
  await transaction(db, async (tx) => {
    // The four people's rows before the plan's (holdPeopleOf): a deletion writes the plan that names them.
    await holdPeopleOf(tx, { planId }, member.coupleId);
    // One answer at a time per plan and couple: two partners at once would each miss the other's.
    await oneAtATime(tx, `plan-feedback:${planId}:${member.coupleId}`);
    // Held open until this commits (a block's ending of it waits): once it has ended, nothing of one
    // couple moves for the other (lib/messages/queries.ts openConversation), so no 'You met on' is recorded.
    const { ended } = await memberConversation(tx, member, plan.conversationId, "share");
    await tx
      .insert(planFeedback)
      .values({ planId, userId: member.userId, coupleId: member.coupleId, answer })
      .onConflictDoUpdate({ target: [planFeedback.planId, planFeedback.userId], set: { answer, answeredAt: sql`now()` } });
    if (answer === "not_for_us" && otherCoupleId && (await bothPartnersSaid(tx, planId, member.coupleId, "not_for_us")))
      await keepApart(tx, member.coupleId, otherCoupleId);
    // 'You met on' and 'Plan again' reach the four's cards live, as every other change of a plan does.
    if (answer === "great" && otherCoupleId && !ended && (await confirmMetIfBothGreat(tx, planId)))
      await tellEveryone(tx, planId, await membersOf(tx, plan.conversationId));
  });
  return { answer, report: answer === "went_wrong" && otherCoupleId ? { targetType: "plan", targetId: planId } : null };
}

/** A 'How was it?' answer from someone who did not answer they can't come to the plan. */
const cameToIt = sql`not exists (select 1 from ${planAnswers} where ${planAnswers.planId} = ${planFeedback.planId} and ${planAnswers.userId} = ${planFeedback.userId} and ${planAnswers.answer} = 'cant')`;

/**
 * 'You met on ...' once both couples said 'Great' (at least one of each, and everyone who answered
 * said it), counting only who could come: one who answered they can't was not there (they are not
 * asked, lib/plans/reminders.ts), so their answer is kept but confirms nothing. Recorded once and
 * kept, so what someone answers afterwards never reaches the other couple by the line going away. Both couples' answers are read under the plan's row lock, so the
 * last 'Great' of either couple sees the other's. Whether this answer recorded it.
 */
async function confirmMetIfBothGreat(tx: Db, planId: string): Promise<boolean> {
  await tx.execute(sql`select 1 from ${plans} where ${plans.id} = ${planId} for no key update`);
  const confirmed = await tx
    .update(plans)
    .set({ metConfirmedAt: sql`now()` })
    .where(
      and(
        eq(plans.id, planId),
        isNull(plans.metConfirmedAt),
        sql`(select count(distinct ${planFeedback.coupleId}) from ${planFeedback} where ${planFeedback.planId} = ${planId} and ${cameToIt}) = 2`,
        sql`not exists (select 1 from ${planFeedback} where ${planFeedback.planId} = ${planId} and ${cameToIt} and ${planFeedback.answer} <> 'great')`,
      ),
    )
    .returning({ id: plans.id });
  return confirmed.length > 0;
}

/** Whether every partner of the couple (now) whose answer counts (decidingPartners) gave this answer about the plan. */
async function bothPartnersSaid(db: Db, planId: string, coupleId: string, answer: FeedbackAnswer): Promise<boolean> {
  const partners = await decidingPartners(db, coupleId);
  if (partners.length === 0) return false;
  const said = await db
    .select({ userId: planFeedback.userId })
    .from(planFeedback)
    .where(and(eq(planFeedback.planId, planId), eq(planFeedback.answer, answer)));
  return partners.every((id) => said.some((row) => row.userId === id));
}

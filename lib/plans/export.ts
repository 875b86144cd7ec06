import "server-only";
import { and, asc, eq, sql } from "drizzle-orm";
import { alias, union } from "drizzle-orm/pg-core";
import type { Db } from "@/db/client";
import { planAnswers, planFeedback, plans } from "@/db/schema";

/**
 * The plans a person took part in, for their data export: those they proposed, answered, said how
 * it was, wrote the note of or cancelled. Their own words and answers only: a note another person
 * wrote, and others' answers and 'How was it?', are those people's. Each way of taking part is
 * found by its own index (the plans' person columns, plan_answers_user_idx, plan_feedback_user_idx),
 * not by reading every plan.
 */
export function plansForExport(db: Db, userId: string) {
  const mine = alias(planAnswers, "my_answer");
  const said = alias(planFeedback, "my_feedback");
  const planIdsBy = (column: typeof plans.proposerUserId | typeof plans.noteByUserId | typeof plans.cancelledByUserId) =>
    db.select({ id: plans.id }).from(plans).where(eq(column, userId));
  const takenPart = union(
    planIdsBy(plans.proposerUserId),
    planIdsBy(plans.noteByUserId),
    planIdsBy(plans.cancelledByUserId),
    db.select({ id: planAnswers.planId }).from(planAnswers).where(eq(planAnswers.userId, userId)),
    db.select({ id: planFeedback.planId }).from(planFeedback).where(eq(planFeedback.userId, userId)),
  ).as("taken_part");
  return db
    .select({
      id: plans.id,
      conversationId: plans.conversationId,
      title: plans.title,
      startsAt: plans.startsLocal,
      endsAt: plans.endsLocal,
      timeZone: plans.timeZone,
      place: plans.placeName,
      venue: plans.venue,
      proposedByYou: sql<boolean>`coalesce(${plans.proposerUserId} = ${userId}, false)`,
      yourNote: sql<string | null>`case when ${plans.noteByUserId} = ${userId} then ${plans.note} end`,
      yourAnswer: mine.answer,
      yourFeedback: said.answer,
      cancelledAt: plans.cancelledAt,
      yourCancelReason: sql<string | null>`case when ${plans.cancelledByUserId} = ${userId} then ${plans.cancelReason} end`,
      createdAt: plans.createdAt,
    })
    .from(takenPart)
    .innerJoin(plans, eq(plans.id, takenPart.id))
    .leftJoin(mine, and(eq(mine.planId, plans.id), eq(mine.userId, userId)))
    .leftJoin(said, and(eq(said.planId, plans.id), eq(said.userId, userId)))
    .orderBy(asc(plans.startsAt), asc(plans.id));
}

import "server-only";
import { and, asc, eq, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "@/db/client";
import { planAnswers, planFeedback, plans } from "@/db/schema";

/**
 * The plans a person took part in, for their data export: those they proposed, answered, said how
 * it was, wrote the note of or cancelled. Their own words and answers only: a note another person
 * wrote, and others' answers and 'How was it?', are those people's.
 */
export async function plansForExport(db: Db, userId: string) {
  const mine = alias(planAnswers, "my_answer");
  const said = alias(planFeedback, "my_feedback");
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
    .from(plans)
    .leftJoin(mine, and(eq(mine.planId, plans.id), eq(mine.userId, userId)))
    .leftJoin(said, and(eq(said.planId, plans.id), eq(said.userId, userId)))
    .where(
      or(
        eq(plans.proposerUserId, userId),
        eq(plans.noteByUserId, userId),
        eq(plans.cancelledByUserId, userId),
        sql`${mine.userId} is not null`,
        sql`${said.userId} is not null`,
      ),
    )
    .orderBy(asc(plans.startsAt), asc(plans.id));
}

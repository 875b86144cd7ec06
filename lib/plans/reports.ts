import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { conversations, couples, plans } from "@/db/schema";
import type { ActingCouple } from "@/lib/membership/acting-couple";
import { ofCouple } from "@/lib/messages/access";
import type { ReportedWords } from "@/lib/safety/reports";
import { dayAndTime, placeCity, placeLine } from "./format";

/**
 * A plan as a report's target ('Something went wrong' after the meetup): the report is about the
 * other couple of the plan's conversation, and moderators see what, when and where, nothing of
 * the conversation itself.
 */

/** The other couple of a conversation, as seen from one of its two couples. */
const otherOf = (row: { low: string | null; high: string | null }, coupleId: string | null) =>
  row.low === coupleId ? row.high : row.high === coupleId ? row.low : null;

/** What a plan says, and the two couples of its conversation. */
const planRow = {
  id: plans.id,
  title: plans.title,
  startsAt: plans.startsAt,
  timeZone: plans.timeZone,
  placeName: plans.placeName,
  placeCity: plans.placeCity,
  venue: plans.venue,
  low: conversations.coupleLowId,
  high: conversations.coupleHighId,
};
type PlanRow = {
  title: string;
  startsAt: Date;
  timeZone: string;
  placeName: string;
  placeCity: string | null;
  venue: string | null;
};

/**
 * A plan's words, as its reporter saw them and as the queue compares them now: what as the title;
 * when and where (the venue or the place's name at its city, as the four see it) as the words. One
 * text for both, so the queue tells a plan changed since it was reported. Never its note: the note
 * goes with the person who wrote it (lib/plans/ending.ts erasePlanWordsOf), and a copy kept apart
 * from the plan could not follow a note rewritten since by someone else.
 */
function planWords(row: PlanRow): ReportedWords {
  const shown = { timeZone: row.timeZone, place: { name: row.placeName, city: row.placeCity }, venue: row.venue };
  const lines = [`When: ${dayAndTime(row.startsAt, row.timeZone)} in ${placeCity(shown)}`, `Where: ${placeLine(shown)}`];
  return { title: row.title, body: lines.join("\n") };
}

/**
 * What a plan report names, as the reporter may see it: the plan's other couple when the reporter
 * is one of its four (and that couple is still there), with the plan's words as they saw them;
 * otherwise nothing, which reads as missing.
 */
export async function reportedPlanCouple(
  db: Db,
  reporter: ActingCouple,
  planId: string,
): Promise<{ coupleId: string; words: ReportedWords } | null> {
  const [row] = await db
    .select(planRow)
    .from(plans)
    .innerJoin(conversations, eq(conversations.id, plans.conversationId))
    .where(and(eq(plans.id, planId), ofCouple(reporter.coupleId)));
  const coupleId = row ? otherOf(row, reporter.coupleId) : null;
  return row && coupleId ? { coupleId, words: planWords(row) } : null;
}

/** A reported plan as the moderation queue shows it: its words now, and the couple reported. */
export type ReportedPlan = { words: ReportedWords; coupleId: string | null; coupleName: string | null };

/** The reported plans of open reports, by report id (the couple reported depends on who reported it): one read. */
export async function reportedPlans(
  db: Db,
  reports: readonly { id: string; targetId: string; reporterCoupleId: string | null }[],
): Promise<Map<string, ReportedPlan>> {
  const found = new Map<string, ReportedPlan>();
  if (reports.length === 0) return found;
  const rows = await db
    .select(planRow)
    .from(plans)
    .innerJoin(conversations, eq(conversations.id, plans.conversationId))
    .where(
      inArray(
        plans.id,
        reports.map((report) => report.targetId),
      ),
    );
  const coupleIds = rows.flatMap((row) => [row.low, row.high]).filter((id): id is string => id !== null);
  const names = new Map(
    coupleIds.length === 0
      ? []
      : (await db.select({ id: couples.id, name: couples.coupleName }).from(couples).where(inArray(couples.id, coupleIds))).map((c) => [
          c.id,
          c.name,
        ]),
  );
  for (const report of reports) {
    const row = rows.find((plan) => plan.id === report.targetId);
    if (!row) continue;
    // A reporting couple gone with its last partner is null in the report and the conversation alike.
    const coupleId = otherOf(row, report.reporterCoupleId);
    found.set(report.id, { words: planWords(row), coupleId, coupleName: coupleId ? (names.get(coupleId) ?? null) : null });
  }
  return found;
}

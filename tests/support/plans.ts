/** Helpers of the plans integration tests: the calls, and a plan's place and times. */
import { GET as conversationPlansRoute, POST as proposeRoute } from "@/app/api/conversations/[id]/plans/route";
import { PUT as answerRoute } from "@/app/api/plans/[id]/answer/route";
import { GET as calendarRoute } from "@/app/api/plans/[id]/calendar.ics/route";
import { PUT as feedbackRoute } from "@/app/api/plans/[id]/feedback/route";
import { DELETE as cancelRoute, GET as planRoute, PATCH as changeRoute } from "@/app/api/plans/[id]/route";
import { DELETE as stopSharingRoute, POST as shareRoute } from "@/app/api/plans/[id]/share/route";
import { GET as upcomingRoute } from "@/app/api/plans/route";
import { and, eq, inArray, or } from "drizzle-orm";
import { NextRequest } from "next/server";
import { getDb } from "@/db/client";
import { conversations, couples, discoverDismissals, planAnswers, plans } from "@/db/schema";
import type { ActingCouple } from "@/lib/membership/acting-couple";
import { call } from "./api";
import { bulkCouples } from "./bulk-couples";
import type { Headers, TestCouple } from "./forum";

const enc = encodeURIComponent;

export const PLACES = {
  lisbon: "geonames:2267057",
  madrid: "geonames:3117735",
  newYork: "geonames:5128581",
};

/** The place's wall clock `days` from now at `time` ('2026-12-14T19:30'), as the form sends it. */
export function daysAhead(days: number, time = "19:30"): string {
  const day = new Date(Date.now() + days * 86_400_000);
  return `${day.toISOString().slice(0, 10)}T${time}`;
}

export const plan = {
  propose: (conversationId: string, body: unknown, h: Headers) =>
    call(proposeRoute, "POST", `/api/conversations/${enc(conversationId)}/plans`, { body, headers: h, params: { id: conversationId } }),
  ofConversation: (conversationId: string, h: Headers) =>
    call(conversationPlansRoute, "GET", `/api/conversations/${enc(conversationId)}/plans`, { headers: h, params: { id: conversationId } }),
  read: (id: string, h: Headers) => call(planRoute, "GET", `/api/plans/${enc(id)}`, { headers: h, params: { id } }),
  change: (id: string, body: unknown, h: Headers) =>
    call(changeRoute, "PATCH", `/api/plans/${enc(id)}`, { body, headers: h, params: { id } }),
  cancel: (id: string, body: unknown, h: Headers) =>
    call(cancelRoute, "DELETE", `/api/plans/${enc(id)}`, { body, headers: h, params: { id } }),
  /** `sequence`: the plan's as the person saw it (left out, the answer goes to the plan as it is). */
  answer: (id: string, answer: unknown, h: Headers, sequence?: number) =>
    call(answerRoute, "PUT", `/api/plans/${enc(id)}/answer`, { body: { answer, sequence }, headers: h, params: { id } }),
  /** The .ics file's text (not JSON). */
  calendar: async (id: string, h: Headers) => {
    const response = await calendarRoute(new NextRequest(`http://localhost:3000/api/plans/${enc(id)}/calendar.ics`, { headers: h }), {
      params: Promise.resolve({ id } as never),
    });
    return { status: response.status, headers: response.headers, text: await response.text() };
  },
  feedback: (id: string, answer: unknown, h: Headers) =>
    call(feedbackRoute, "PUT", `/api/plans/${enc(id)}/feedback`, { body: { answer }, headers: h, params: { id } }),
  share: (id: string, h: Headers) => call(shareRoute, "POST", `/api/plans/${enc(id)}/share`, { headers: h, params: { id } }),
  stopSharing: (id: string, h: Headers) => call(stopSharingRoute, "DELETE", `/api/plans/${enc(id)}/share`, { headers: h, params: { id } }),
  upcoming: (h: Headers, qs = "?upcoming=1") => call(upcomingRoute, "GET", `/api/plans${qs}`, { headers: h }),
};

/** The acting couple of a test couple's partner A, for calling the domain with a clock of the test's choosing. */
export const actingA = (couple: TestCouple): ActingCouple => ({
  userId: couple.a.userId,
  firstName: couple.a.firstName,
  role: "member",
  coupleId: couple.coupleId,
  coupleName: couple.name,
  coupleImageUrl: null,
  coupleCreatedAt: new Date(),
  partnerIds: [couple.a.userId, couple.b.userId],
  bothApprove: false,
  canCreatePaidEvents: false,
});

/** Which of the two couples keeps the other apart ('Not for us' from both partners): their ids, sorted. */
export async function keptApart(one: string, two: string): Promise<string[]> {
  const db = await getDb();
  const rows = await db
    .select({ coupleId: discoverDismissals.coupleId })
    .from(discoverDismissals)
    .where(
      or(
        and(eq(discoverDismissals.coupleId, one), eq(discoverDismissals.dismissedCoupleId, two)),
        and(eq(discoverDismissals.coupleId, two), eq(discoverDismissals.dismissedCoupleId, one)),
      ),
    );
  return rows.map((row) => row.coupleId).sort();
}

/**
 * `count` plans titled `title`, each in a conversation of its own between two one-partner couples
 * (bulkCouples, ids led by `prefix`), a minute apart from `firstStart` ('2028-02-10T08:00') in
 * Lisbon, both people going: a backlog whose plans share no person. Earliest first: each plan's
 * id and the proposing couple's person.
 */
export async function plansApart(prefix: string, count: number, title: string, firstStart: string) {
  const db = await getDb();
  const ids = await bulkCouples(prefix, count * 2, []);
  const rows = await db.select({ id: couples.id, person: couples.partner1Id }).from(couples).where(inArray(couples.id, ids));
  const personOf = new Map(rows.map((row) => [row.id, row.person]));
  const pairs = Array.from({ length: count }, (_, index) => ({ low: ids[index * 2]!, high: ids[index * 2 + 1]! }));
  const talks = await db
    .insert(conversations)
    .values(pairs.map((pair) => ({ coupleLowId: pair.low, coupleHighId: pair.high })))
    .returning({ id: conversations.id, low: conversations.coupleLowId, high: conversations.coupleHighId });
  const first = new Date(`${firstStart}:00Z`).getTime();
  const made = await db
    .insert(plans)
    .values(
      talks.map((talk, index) => {
        // Lisbon keeps UTC in winter: the wall clock is the instant.
        const startsAt = new Date(first + index * 60_000);
        return {
          conversationId: talk.id,
          proposerUserId: personOf.get(talk.low!)!,
          proposerCoupleId: talk.low!,
          title,
          startsLocal: startsAt.toISOString().slice(0, 16),
          timeZone: "Europe/Lisbon",
          startsAt,
          placeName: "Lisbon",
        };
      }),
    )
    .returning({ id: plans.id, startsAt: plans.startsAt, proposer: plans.proposerUserId, conversationId: plans.conversationId });
  const highOf = new Map(talks.map((talk) => [talk.id, personOf.get(talk.high!)!]));
  await db.insert(planAnswers).values(
    made.flatMap((row) => [
      { planId: row.id, userId: row.proposer!, answer: "going" },
      { planId: row.id, userId: highOf.get(row.conversationId)!, answer: "going" },
    ]),
  );
  return made.sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime()).map((row) => ({ id: row.id, personId: row.proposer! }));
}

import { and, eq, inArray, or, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { discoverDismissals, liveEvents, notifications, plans } from "@/db/schema";
import { transaction } from "@/db/transaction";
import { giveFeedback } from "@/lib/plans/feedback";
import { PLANS_PER_RUN } from "@/lib/plans/reminders";
import { runDueWork } from "@/lib/scheduled/service";
import { metOnWith } from "@/lib/plans/queries";
import type { TestCouple } from "../support/forum";
import { block, connected, messagingCouple } from "../support/messages";
import { moderatorCouple, sanctions } from "../support/moderation";
import { actingA, keptApart, PLACES, plan, plansApart } from "../support/plans";
import { lockWaits, nextWhileWaiting, whileHolding } from "../support/lock-race";
import { onPostgres } from "../support/test-database";

/** Two couples who met yesterday evening: the plan moved into the past, as time would. */
async function metYesterday() {
  const four = await connected();
  const made = (
    await plan.propose(four.conversationId, { title: "Dinner", startsAt: "2026-12-14T19:30", placeId: PLACES.lisbon }, four.one.a.headers)
  ).json.data;
  const db = await getDb();
  const yesterday = new Date(Date.now() - 24 * 3_600_000);
  await db
    .update(plans)
    .set({ startsAt: yesterday, startsLocal: yesterday.toISOString().slice(0, 16) })
    .where(eq(plans.id, made.id));
  return { ...four, id: made.id as string, day: yesterday.toISOString().slice(0, 10) };
}

describe("'How was it?' after the meetup", () => {
  it("is asked once of each of the four from the scheduled work, after the meetup's end, never for a cancelled plan", async () => {
    const { one, two, id, conversationId } = await metYesterday();
    const cancelled = await metYesterday();
    const db = await getDb();
    await db.update(plans).set({ cancelledAt: new Date() }).where(eq(plans.id, cancelled.id));
    await Promise.all([runDueWork(db), runDueWork(db)]);
    await runDueWork(db);
    const asked = (conversation: string) =>
      db
        .select({ userId: notifications.userId })
        .from(notifications)
        .where(and(eq(notifications.type, "plan_feedback"), eq(notifications.conversationId, conversation)));
    expect((await asked(conversationId)).map((r) => r.userId).sort()).toEqual(
      [one.a.userId, one.b.userId, two.a.userId, two.b.userId].sort(),
    );
    expect(await asked(cancelled.conversationId)).toEqual([]);
    const [row] = await db.select({ askedAt: plans.feedbackAskedAt }).from(plans).where(eq(plans.id, id));
    expect(row!.askedAt).not.toBeNull();
  });

  it("is not asked of who said they can't come, nor of anyone when both partners of one couple said so", async () => {
    const db = await getDb();
    const asked = (conversation: string) =>
      db
        .select({ userId: notifications.userId })
        .from(notifications)
        .where(and(eq(notifications.type, "plan_feedback"), eq(notifications.conversationId, conversation)));
    const withAnswers = async (cant: (four: Awaited<ReturnType<typeof connected>>) => TestCouple["a"][]) => {
      const four = await connected();
      const { id } = (
        await plan.propose(
          four.conversationId,
          { title: "Dinner", startsAt: "2026-12-14T19:30", placeId: PLACES.lisbon },
          four.one.a.headers,
        )
      ).json.data;
      for (const person of cant(four)) expect((await plan.answer(id, "cant", person.headers)).status).toBe(200);
      const yesterday = new Date(Date.now() - 24 * 3_600_000);
      await db
        .update(plans)
        .set({ startsAt: yesterday, startsLocal: yesterday.toISOString().slice(0, 16) })
        .where(eq(plans.id, id));
      return four;
    };
    const oneAbsent = await withAnswers((four) => [four.two.b]);
    const coupleAbsent = await withAnswers((four) => [four.two.a, four.two.b]);
    await runDueWork(db);
    expect((await asked(oneAbsent.conversationId)).map((r) => r.userId).sort()).toEqual(
      [oneAbsent.one.a.userId, oneAbsent.one.b.userId, oneAbsent.two.a.userId].sort(),
    );
    expect(await asked(coupleAbsent.conversationId)).toEqual([]);
  });

  it("is asked up to FEEDBACK_WITHIN_DAYS (7) after the meetup's end, not about one that ended longer ago", async () => {
    const db = await getDb();
    const endedAgo = async (hours: number) => {
      const met = await metYesterday();
      // Three hours long (no end given): it started three hours before its end.
      const start = new Date(Date.now() - (hours + 3) * 3_600_000);
      await db
        .update(plans)
        .set({ startsAt: start, startsLocal: start.toISOString().slice(0, 16) })
        .where(eq(plans.id, met.id));
      return met;
    };
    const lately = await endedAgo(7 * 24 - 1);
    const long = await endedAgo(7 * 24 + 1);
    await runDueWork(db);
    const asked = (conversationId: string) =>
      db
        .select({ userId: notifications.userId })
        .from(notifications)
        .where(and(eq(notifications.type, "plan_feedback"), eq(notifications.conversationId, conversationId)));
    expect(await asked(lately.conversationId)).toHaveLength(4);
    expect(await asked(long.conversationId)).toEqual([]);
  });

  it("is not asked once the conversation has ended: a couple suspended after the meetup", async () => {
    const { two, id, conversationId } = await metYesterday();
    const { headers } = await moderatorCouple();
    expect((await sanctions.act(two.coupleId, { kind: "suspend", reason: "hate" }, headers)).status).toBe(201);
    const db = await getDb();
    await runDueWork(db);
    const asked = await db
      .select({ userId: notifications.userId })
      .from(notifications)
      .where(and(eq(notifications.type, "plan_feedback"), eq(notifications.conversationId, conversationId)));
    expect(asked).toEqual([]);
    // Started before the suspension: it is not cancelled, and is asked about no later run either.
    const [row] = await db.select({ cancelledAt: plans.cancelledAt, askedAt: plans.feedbackAskedAt }).from(plans).where(eq(plans.id, id));
    expect(row).toEqual({ cancelledAt: null, askedAt: expect.any(Date) });
  });

  it("is asked of at most PLANS_PER_RUN plans a run: a larger backlog over the next runs, each plan once", async () => {
    const { conversationId, id } = await metYesterday();
    const db = await getDb();
    // PLANS_PER_RUN more meetups of the same four yesterday (past the API's limits, to make a backlog).
    await db.execute(sql`
      insert into plans (conversation_id, proposer_user_id, proposer_couple_id, title, starts_local, time_zone, starts_at, place_id, place_name)
      select conversation_id, proposer_user_id, proposer_couple_id, title, starts_local, time_zone, starts_at, place_id, place_name
      from plans, generate_series(1, ${PLANS_PER_RUN}) where id = ${id}`);
    const asked = () =>
      db
        .select({ userId: notifications.userId })
        .from(notifications)
        .where(and(eq(notifications.type, "plan_feedback"), eq(notifications.conversationId, conversationId)));
    await runDueWork(db);
    // Other files' meetups over by now may take part of the first run too: at most the cap of this file's.
    expect((await asked()).length).toBeLessThanOrEqual(PLANS_PER_RUN * 4);
    for (let run = 0; run < 3; run++) await runDueWork(db);
    expect(await asked()).toHaveLength((PLANS_PER_RUN + 1) * 4);
    const unasked = await db
      .select({ id: plans.id })
      .from(plans)
      .where(and(eq(plans.conversationId, conversationId), sql`${plans.feedbackAskedAt} is null`));
    expect(unasked).toEqual([]);
  });

  it("is refused before the meetup has ended, and from anyone outside the four", async () => {
    const { one, conversationId } = await connected();
    const made = (
      await plan.propose(conversationId, { title: "Soon", startsAt: "2026-12-20T19:30", placeId: PLACES.lisbon }, one.a.headers)
    ).json.data;
    const early = await plan.feedback(made.id, "great", one.a.headers);
    expect(early.status).toBe(409);
    expect(early.json.error.message).toBe("You can say how it was once you have met.");
    const { id } = await metYesterday();
    const stranger = await messagingCouple();
    expect((await plan.feedback(id, "great", stranger.a.headers)).status).toBe(404);
    expect((await plan.feedback(id, "amazing", stranger.a.headers)).status).toBe(400);
  });

  it("keeps each answer private; 'You met on' shows once both couples said great, and stays whatever is answered after", async () => {
    const { one, two, id, day } = await metYesterday();
    expect((await plan.feedback(id, "great", one.a.headers)).json.data).toEqual({ answer: "great", report: null });
    const seenByOther = (await plan.read(id, two.a.headers)).json.data;
    expect(seenByOther).toMatchObject({ yourFeedback: null, metOn: null });
    expect(JSON.stringify(seenByOther)).not.toContain("great");
    expect((await plan.read(id, one.a.headers)).json.data.yourFeedback).toBe("great");
    const db = await getDb();
    const cardsSent = async () =>
      (
        await db
          .select({ userId: liveEvents.userId })
          .from(liveEvents)
          .where(and(eq(liveEvents.kind, "plan"), eq(liveEvents.subjectId, id)))
      )
        .map((row) => row.userId)
        .sort();
    const before = await cardsSent();
    await plan.feedback(id, "great", two.b.headers);
    for (const person of [one.a, one.b, two.a, two.b]) expect((await plan.read(id, person.headers)).json.data.metOn).toBe(day);
    // The four's open cards show it live, the couple who said great first too.
    expect(await cardsSent()).toEqual([...before, one.a.userId, one.b.userId, two.a.userId, two.b.userId].sort());
    // And on each other's profile, for the two couples only.
    expect(await metOnWith(db, actingA(one), two.coupleId)).toBe(day);
    expect(await metOnWith(db, actingA(two), one.coupleId)).toBe(day);
    const stranger = await messagingCouple();
    expect(await metOnWith(db, actingA(stranger), one.coupleId)).toBeNull();
    // A partner's later answer never reaches the other couple by the line going away.
    await plan.feedback(id, "not_for_us", one.b.headers);
    for (const person of [one.a, two.a]) expect((await plan.read(id, person.headers)).json.data.metOn).toBe(day);
  });

  it("keeps 'You met on' on each other's profile however many meetups came after it", async () => {
    const { one, two, id, day } = await metYesterday();
    for (const person of [one.a, two.a]) await plan.feedback(id, "great", person.headers);
    expect(await metOnWith(await getDb(), actingA(one), two.coupleId)).toBe(day);
    const db = await getDb();
    const [met] = await db.select().from(plans).where(eq(plans.id, id));
    // Twelve later meetups nobody said 'Great' about, each an hour after the last.
    await db.insert(plans).values(
      Array.from({ length: 12 }, (_, i) => {
        const at = new Date(met!.startsAt.getTime() + (i + 1) * 3_600_000);
        return { ...met!, id: undefined, metConfirmedAt: null, startsAt: at, startsLocal: at.toISOString().slice(0, 16) };
      }),
    );
    expect(await metOnWith(db, actingA(one), two.coupleId)).toBe(day);
    expect(await metOnWith(db, actingA(two), one.coupleId)).toBe(day);
  });

  it("shows no 'You met on' while anyone who answered said anything but great", async () => {
    const { one, two, id } = await metYesterday();
    await plan.feedback(id, "fine", one.b.headers);
    await plan.feedback(id, "great", one.a.headers);
    await plan.feedback(id, "great", two.a.headers);
    for (const person of [one.a, two.a]) expect((await plan.read(id, person.headers)).json.data.metOn).toBeNull();
    await plan.feedback(id, "great", one.b.headers);
    expect((await plan.read(id, two.b.headers)).json.data.metOn).not.toBeNull();
  });

  it("counts no 'Great' toward 'You met on' from who said they can't come: their answer is kept, their couple's must come from who came", async () => {
    const four = await connected();
    const { one, two } = four;
    const { id } = (
      await plan.propose(four.conversationId, { title: "Dinner", startsAt: "2026-12-14T19:30", placeId: PLACES.lisbon }, one.a.headers)
    ).json.data;
    expect((await plan.answer(id, "cant", two.b.headers)).status).toBe(200);
    const db = await getDb();
    const yesterday = new Date(Date.now() - 24 * 3_600_000);
    await db
      .update(plans)
      .set({ startsAt: yesterday, startsLocal: yesterday.toISOString().slice(0, 16) })
      .where(eq(plans.id, id));
    expect((await plan.feedback(id, "great", two.b.headers)).status).toBe(200);
    expect((await plan.feedback(id, "great", one.a.headers)).status).toBe(200);
    expect((await plan.read(id, two.b.headers)).json.data.yourFeedback).toBe("great");
    for (const person of [one.a, two.a]) expect((await plan.read(id, person.headers)).json.data.metOn).toBeNull();
    expect(await metOnWith(db, actingA(one), two.coupleId)).toBeNull();
    await plan.feedback(id, "great", two.a.headers);
    expect((await plan.read(id, one.a.headers)).json.data.metOn).toBe(yesterday.toISOString().slice(0, 10));
  });

  it("after a block, a 'Great' records no 'You met on' and sends nothing to the other couple's cards", async () => {
    const { one, two, id } = await metYesterday();
    expect((await plan.feedback(id, "great", one.a.headers)).status).toBe(200);
    expect((await block(one.coupleId, two.a.headers)).status).toBe(200);
    const db = await getDb();
    const cardsOf = async (people: string[]) =>
      db
        .select({ userId: liveEvents.userId })
        .from(liveEvents)
        .where(and(eq(liveEvents.kind, "plan"), eq(liveEvents.subjectId, id), inArray(liveEvents.userId, people)));
    const before = await cardsOf([one.a.userId, one.b.userId]);
    // The blocking couple's own answer stays theirs, privately; it completes nothing the blocked couple sees.
    expect((await plan.feedback(id, "great", two.b.headers)).status).toBe(200);
    expect((await plan.read(id, one.a.headers)).json.data.metOn).toBeNull();
    expect(await cardsOf([one.a.userId, one.b.userId])).toEqual(before);
    expect(await metOnWith(db, actingA(one), two.coupleId)).toBeNull();
  });

  it("'Not for us' from both partners keeps the two couples out of each other's suggestions; 'Something went wrong' attaches the plan to report", async () => {
    const { one, two, id } = await metYesterday();
    const db = await getDb();
    const apart = () =>
      db
        .select({ coupleId: discoverDismissals.coupleId, hiddenUntil: discoverDismissals.hiddenUntil })
        .from(discoverDismissals)
        .where(
          or(
            and(eq(discoverDismissals.coupleId, one.coupleId), eq(discoverDismissals.dismissedCoupleId, two.coupleId)),
            and(eq(discoverDismissals.coupleId, two.coupleId), eq(discoverDismissals.dismissedCoupleId, one.coupleId)),
          ),
        );
    await plan.feedback(id, "not_for_us", two.a.headers);
    expect(await apart()).toEqual([]);
    await plan.feedback(id, "not_for_us", two.b.headers);
    const rows = await apart();
    expect(rows.map((r) => r.coupleId).sort()).toEqual([one.coupleId, two.coupleId].sort());
    expect(rows.every((r) => r.hiddenUntil.getUTCFullYear() === 9999)).toBe(true);
    const wrong = await plan.feedback(id, "went_wrong", one.a.headers);
    expect(wrong.json.data).toEqual({ answer: "went_wrong", report: { targetType: "plan", targetId: id } });
  });
});

describe.skipIf(!onPostgres())("'Not for us' from both partners at one instant", () => {
  it("keeps the couples apart: the second answer waits for the first to commit, then sees it", async () => {
    const { one, two, id } = await metYesterday();
    const db = await getDb();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let answered!: () => void;
    const firstAnswered = new Promise<void>((resolve) => (answered = resolve));
    // Partner A's answer, its whole work done in a transaction kept open (not committed yet).
    const first = transaction(db, async (tx) => {
      await giveFeedback(tx, actingA(two), id, "not_for_us");
      answered();
      await held;
    });
    await firstAnswered;
    let settled = false;
    const second = plan.feedback(id, "not_for_us", two.b.headers).finally(() => (settled = true));
    await lockWaits(1, () => settled);
    release();
    await first;
    expect((await second).status).toBe(200);
    expect(await keptApart(one.coupleId, two.coupleId)).toEqual([one.coupleId, two.coupleId].sort());
  });
});

describe.skipIf(!onPostgres())("'Great' while one of the other couple deletes their account", () => {
  it("waits for the person first, never holding the plan the deletion writes (their note, their name as proposer)", async () => {
    const { one, two, id } = await metYesterday();
    expect((await plan.feedback(id, "great", one.a.headers)).status).toBe(200);
    const { waited, answer } = await nextWhileWaiting(
      // What an account's deletion takes first (lib/account/deletion.ts): the person's row...
      (tx) => tx`select id from users where id = ${one.a.userId} for update`,
      // ...whose 'Great' makes 'You met on'...
      () => plan.feedback(id, "great", two.b.headers),
      // ...then the plans naming them (erasePlanWordsOf, the proposer's foreign key): NOWAIT fails if the answer holds the plan.
      (tx) => tx`select id from plans where id = ${id} for no key update nowait`,
    );
    expect(waited).toBe(true);
    expect(answer.status).toBe(200);
  });
});

describe.skipIf(!onPostgres())("'How was it?' asked while one of the four deletes their account", () => {
  it("waits for the person before claiming the plan the deletion writes (their name as proposer), then asks", async () => {
    const { one, id, conversationId } = await metYesterday();
    const db = await getDb();
    const { waited } = await nextWhileWaiting(
      // What an account's deletion takes first (lib/account/deletion.ts): the person's row...
      (tx) => tx`select id from users where id = ${one.a.userId} for update`,
      () => runDueWork(db),
      // ...then the plans naming them (erasePlanWordsOf, the proposer's foreign key): NOWAIT fails if the run holds the plan.
      (tx) => tx`select id from plans where id = ${id} for no key update nowait`,
    );
    expect(waited).toBe(true);
    const asked = await db
      .select({ userId: notifications.userId })
      .from(notifications)
      .where(and(eq(notifications.type, "plan_feedback"), eq(notifications.conversationId, conversationId)));
    expect(asked).toHaveLength(4);
  });
});

describe.skipIf(!onPostgres())("'How was it?' runs, each plan's people held before it is claimed", () => {
  it("claims no plan past those whose people it held: with one of the first PLANS_PER_RUN held by a write, the next waits for a run", async () => {
    const met = await plansApart("a11ce02", PLANS_PER_RUN + 1, "Met apart", "2028-02-10T08:00");
    const [first, last] = [met[0]!, met.at(-1)!];
    const db = await getDb();
    const evening = new Date("2028-02-10T18:00:00Z");
    // A 'Great' on the earliest plan (its row locked), its transaction still open: the run skips that plan (SKIP LOCKED).
    await whileHolding(
      (tx) => tx`select id from plans where id = ${first.id} for no key update`,
      () =>
        nextWhileWaiting(
          // An account's deletion of a person of the plan past the first PLANS_PER_RUN: their row, then their plans (NOWAIT).
          (tx) => tx`select id from users where id = ${last.personId} for update`,
          () => runDueWork(db, evening),
          (tx) => tx`select id from plans where id = ${last.id} for no key update nowait`,
        ),
    );
    for (let minute = 1; minute <= 2; minute++) await runDueWork(db, new Date(evening.getTime() + minute * 60_000));
    const asked = await db
      .select({ planId: notifications.planId })
      .from(notifications)
      .where(and(eq(notifications.type, "plan_feedback"), eq(notifications.title, "How was it? Met apart")));
    expect(asked).toHaveLength(met.length * 2);
    expect(new Set(asked.map((row) => row.planId)).size).toBe(met.length);
  });
});

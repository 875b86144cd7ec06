import { randomUUID } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import ICAL from "ical.js";
import { describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { liveEvents, notifications, planAnswers, plans, rateLimitHits } from "@/db/schema";
import { timeForViewer } from "@/lib/plans/format";
import { UPCOMING_LIST_MAX, upcomingPlans } from "@/lib/plans/queries";
import { PLAN_LIMITS } from "@/lib/plans/rules";
import { changePlan, proposePlan } from "@/lib/plans/service";
import { sendPlanReminders } from "@/lib/plans/reminders";
import { transaction } from "@/db/transaction";
import { gazetteerProvider } from "@/lib/places/gazetteer";
import { LIMITS, recordHit } from "@/lib/rate-limit";
import { exportAccount } from "@/lib/account/export";
import { plansForExport } from "@/lib/plans/export";
import { freshAddress } from "../support/api";
import { block, connected, messagingCouple, talk } from "../support/messages";
import { moderatorCouple, sanctions } from "../support/moderation";
import { nextWhileWaiting, waitsOn, whileHeld } from "../support/lock-race";
import { queryPlan, recordingStatements, wholeScans } from "../support/query-plan";
import { actingA, daysAhead, PLACES, plan } from "../support/plans";
import { onPostgres } from "../support/test-database";

const dinner = (startsAt = daysAhead(15), extra: Record<string, unknown> = {}) => ({
  title: "Dinner and a walk",
  startsAt,
  placeId: PLACES.lisbon,
  venue: "Time Out Market",
  ...extra,
});

async function planCount(conversationId: string) {
  const db = await getDb();
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(plans)
    .where(eq(plans.conversationId, conversationId));
  return row!.n;
}

async function notified(planTitle: string, type: string) {
  const db = await getDb();
  return db
    .select({ userId: notifications.userId, title: notifications.title, message: notifications.message })
    .from(notifications)
    .where(and(eq(notifications.type, type), eq(notifications.title, planTitle)));
}

describe("a plan between two talking couples", () => {
  it("is proposed by one of the four at a place's wall clock, in its zone, and answered by all four until confirmed", async () => {
    const { one, two, conversationId } = await connected();
    const startsAt = daysAhead(15);
    const res = await plan.propose(
      conversationId,
      { ...dinner(startsAt), endsAt: startsAt.replace("19:30", "22:00"), note: "Bring a coat" },
      two.b.headers,
    );
    expect(res.status).toBe(201);
    const created = res.json.data;
    expect(created).toEqual({
      id: expect.any(String),
      conversationId,
      title: "Dinner and a walk",
      startsAt: expect.stringMatching(new RegExp(`^${startsAt}:00\\+0[01]:00$`)),
      endsAt: expect.stringMatching(new RegExp(`^${startsAt.replace("19:30", "22:00")}:00\\+0[01]:00$`)),
      timeZone: "Europe/Lisbon",
      place: { placeId: PLACES.lisbon, name: "Lisbon", city: "Lisbon", country: "Portugal" },
      venue: "Time Out Market",
      note: "Bring a coat",
      answers: expect.arrayContaining([{ userId: one.a.userId, firstName: one.a.firstName, answer: null }]),
      confirmed: false,
      proposedBy: { userId: two.b.userId, firstName: two.b.firstName },
      proposerCoupleId: two.coupleId,
      cancelledAt: null,
      cancelReason: null,
      sequence: 0,
      sharing: false,
      yourFeedback: null,
      metOn: null,
    });
    // All four, each couple's partners together, with their first names.
    const couplesInOrder = created.answers.map((a: { userId: string; firstName: string }) => `${a.firstName}`);
    expect([couplesInOrder.slice(0, 2), couplesInOrder.slice(2)].map((pair) => pair.sort())).toEqual(
      expect.arrayContaining([[one.a.firstName, one.b.firstName].sort(), [two.a.firstName, two.b.firstName].sort()]),
    );

    const told = await notified("New plan: Dinner and a walk", "plan_proposed");
    expect(told.map((n) => n.userId).sort()).toEqual([one.a.userId, one.b.userId, two.a.userId].sort());
    expect(told[0]!.message).toMatch(
      new RegExp(`^${two.b.firstName} proposed to meet \\w{3} \\d{1,2} \\w{3}, 19:30 in Lisbon\\. Are you going\\?$`),
    );
    const db = await getDb();
    const live = await db
      .select({ userId: liveEvents.userId })
      .from(liveEvents)
      .where(and(eq(liveEvents.kind, "plan"), eq(liveEvents.subjectId, created.id)));
    expect(live).toHaveLength(4);

    for (const [person, answer] of [
      [one.a, "going"],
      [one.b, "maybe"],
      [two.a, "going"],
    ] as const)
      expect((await plan.answer(created.id, answer, person.headers)).status).toBe(200);
    const partly = (await plan.read(created.id, two.b.headers)).json.data;
    expect(partly.confirmed).toBe(false);
    expect(partly.answers.find((a: { userId: string }) => a.userId === one.b.userId).answer).toBe("maybe");
    expect(partly.answers.find((a: { userId: string }) => a.userId === two.b.userId).answer).toBeNull();
    await plan.answer(created.id, "going", one.b.headers);
    const all = await plan.answer(created.id, "going", two.b.headers);
    expect(all.json.data.confirmed).toBe(true);
    expect(all.json.data.answers.every((a: { answer: string }) => a.answer === "going")).toBe(true);

    for (const person of [one.a, one.b, two.a, two.b]) {
      const upcoming = await plan.upcoming(person.headers);
      expect(upcoming.status).toBe(200);
      expect(upcoming.json.data.map((p: { id: string }) => p.id)).toEqual([created.id]);
    }
    expect((await plan.ofConversation(conversationId, one.a.headers)).json.data).toHaveLength(1);
  });

  it("asks everyone again when the time moves: answers back to 'not yet', sequence up, the others told what changed", async () => {
    const { one, two, conversationId } = await connected();
    const created = (await plan.propose(conversationId, dinner(), one.a.headers)).json.data;
    for (const person of [one.a, one.b, two.a, two.b]) await plan.answer(created.id, "going", person.headers);

    const unchanged = await plan.change(created.id, { title: "Dinner and a walk", venue: "Time Out Market" }, two.a.headers);
    expect(unchanged.json.data).toMatchObject({ sequence: 0, confirmed: true });

    const later = daysAhead(15, "20:30");
    const moved = await plan.change(created.id, { startsAt: later, note: "Table booked" }, two.a.headers);
    expect(moved.status).toBe(200);
    expect(moved.json.data).toMatchObject({ sequence: 1, confirmed: false, note: "Table booked" });
    expect(moved.json.data.startsAt.startsWith(`${later}:00`)).toBe(true);
    expect(moved.json.data.answers.every((a: { answer: unknown }) => a.answer === null)).toBe(true);
    const told = await notified("Plan changed: Dinner and a walk", "plan_changed");
    expect(told.map((n) => n.userId).sort()).toEqual([one.a.userId, one.b.userId, two.b.userId].sort());
    expect(told[0]!.message).toBe(`${two.a.firstName} changed the time and the note. Please answer again.`);

    const elsewhere = await plan.change(created.id, { placeId: PLACES.madrid, venue: null }, one.b.headers);
    expect(elsewhere.json.data).toMatchObject({ sequence: 2, timeZone: "Europe/Madrid", venue: null, place: { name: "Madrid" } });
    // The wall clock stays 20:30, now Madrid's.
    expect(elsewhere.json.data.startsAt).toMatch(new RegExp(`^${later}:00\\+0[12]:00$`));
    expect((await plan.change(created.id, {}, one.b.headers)).status).toBe(400);
  });

  it("keeps everyone's answers when only the note changes (the others told); what, when or where asks again", async () => {
    const { one, two, conversationId } = await connected();
    const created = (await plan.propose(conversationId, dinner(daysAhead(15), { title: "Drinks by the river" }), one.a.headers)).json.data;
    for (const person of [one.a, one.b, two.a, two.b]) await plan.answer(created.id, "going", person.headers);

    const noted = await plan.change(created.id, { note: "Bring an umbrella" }, two.b.headers);
    expect(noted.json.data).toMatchObject({ sequence: 1, confirmed: true, note: "Bring an umbrella" });
    const told = await notified("Plan changed: Drinks by the river", "plan_changed");
    expect(told.map((n) => n.userId).sort()).toEqual([one.a.userId, one.b.userId, two.a.userId].sort());
    expect(told[0]!.message).toBe(`${two.b.firstName} changed the note.`);

    const renamed = await plan.change(created.id, { title: "Drinks, then a walk" }, two.b.headers);
    expect(renamed.json.data).toMatchObject({ sequence: 2, confirmed: false });
  });

  it("refuses a change or an answer made on a plan that changed since it was shown (409), changing nothing", async () => {
    const { one, two, conversationId } = await connected();
    const created = (await plan.propose(conversationId, dinner(), one.a.headers)).json.data;
    const sunday = daysAhead(16, "20:00");
    const moved = await plan.change(created.id, { startsAt: sunday, sequence: 0 }, one.b.headers);
    expect(moved.json.data.sequence).toBe(1);

    // A form opened on sequence 0 sends its old time back with a new note: Rui's move stands.
    const stale = await plan.change(created.id, { startsAt: daysAhead(15), note: "See you there", sequence: 0 }, two.a.headers);
    expect(stale.status).toBe(409);
    expect(stale.json.error).toMatchObject({
      code: "PLAN_CHANGED",
      message: "This plan changed since you opened it. Please look at it again.",
    });
    // A 'Going' tapped on the card of the old time is not taken for the new one.
    const lateYes = await plan.answer(created.id, "going", two.b.headers, 0);
    expect(lateYes.status).toBe(409);
    const now = (await plan.read(created.id, two.b.headers)).json.data;
    expect(now).toMatchObject({ sequence: 1, note: null });
    expect(now.startsAt.startsWith(`${sunday}:00`)).toBe(true);
    expect(now.answers.every((a: { answer: unknown }) => a.answer === null)).toBe(true);

    expect((await plan.answer(created.id, "going", two.b.headers, 1)).status).toBe(200);
    expect((await plan.change(created.id, { note: "See you there", sequence: 1 }, two.a.headers)).json.data).toMatchObject({
      sequence: 2,
      note: "See you there",
    });
    for (const sequence of [-1, 1.5, "2"])
      expect((await plan.answer(created.id, "maybe", two.b.headers, sequence as number)).status).toBe(400);
  });

  it("is cancelled by the proposer or their partner with a reason; the other couple may not; then it is closed", async () => {
    const { one, two, conversationId } = await connected();
    const created = (await plan.propose(conversationId, dinner(), one.a.headers)).json.data;
    const refused = await plan.cancel(created.id, {}, two.a.headers);
    expect(refused.status).toBe(403);
    const cancelled = await plan.cancel(created.id, { reason: "Rui is ill" }, one.b.headers);
    expect(cancelled.status).toBe(200);
    expect(cancelled.json.data).toMatchObject({ cancelReason: "Rui is ill", sequence: 1, confirmed: false });
    expect(cancelled.json.data.cancelledAt).toMatch(/^\d{4}-/);
    const told = await notified("Plan cancelled: Dinner and a walk", "plan_cancelled");
    expect(told.map((n) => n.userId).sort()).toEqual([one.a.userId, two.a.userId, two.b.userId].sort());
    expect(told[0]!.message).toBe(`${one.b.firstName} cancelled it: Rui is ill`);
    expect((await plan.cancel(created.id, {}, one.a.headers)).json.data.sequence).toBe(1);
    expect((await plan.answer(created.id, "going", two.a.headers)).json.error.code).toBe("PLAN_CLOSED");
    expect((await plan.change(created.id, { title: "Lunch" }, two.a.headers)).status).toBe(409);
    expect((await plan.upcoming(two.a.headers)).json.data).toEqual([]);
  });

  it.skipIf(!onPostgres())("cancelled by both partners at one instant: both see it cancelled, the others are told once", async () => {
    const { one, two, conversationId } = await connected();
    const title = `Dinner ${randomUUID().slice(0, 8)}`;
    const created = (await plan.propose(conversationId, dinner(daysAhead(15), { title }), one.a.headers)).json.data;
    const answers = await whileHeld(
      (tx) => tx`select id from plans where id = ${created.id} for update`,
      [() => plan.cancel(created.id, {}, one.a.headers), () => plan.cancel(created.id, {}, one.b.headers)],
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    expect(answers.map((answer) => answer.json.data.sequence)).toEqual([1, 1]);
    const told = await notified(`Plan cancelled: ${title}`, "plan_cancelled");
    // The three others of the one whose cancel went first, each once.
    expect(told).toHaveLength(3);
    expect(new Set(told.map((n) => n.userId)).size).toBe(3);
    expect(told.map((n) => n.userId)).toEqual(expect.arrayContaining([two.a.userId, two.b.userId]));
  });

  it.skipIf(!onPostgres())(
    "a change sent without a sequence keeps its place when another moved the plan meanwhile: where it goes is decided under the lock",
    async () => {
      const { one, two, conversationId } = await connected();
      const created = (await plan.propose(conversationId, dinner(), one.a.headers)).json.data;
      const { waited, answer } = await nextWhileWaiting(
        (tx) => tx`select id from plans where id = ${created.id} for update`,
        // Read at Lisbon before the lock: the change sends Lisbon back, with a note, and no sequence.
        () => plan.change(created.id, { placeId: PLACES.lisbon, note: "Lisbon after all" }, two.a.headers),
        // Another's change moves it to Madrid while the first waits on the plan.
        (tx) =>
          tx`update plans set place_id = ${PLACES.madrid}, place_name = 'Madrid', place_city = null, place_country = 'Spain',
            time_zone = 'Europe/Madrid', sequence = sequence + 1 where id = ${created.id}`,
      );
      expect(waited).toBe(true);
      expect(answer.status).toBe(200);
      expect(answer.json.data).toMatchObject({
        sequence: 2,
        timeZone: "Europe/Lisbon",
        note: "Lisbon after all",
        place: { name: "Lisbon" },
      });
      const told = await notified("Plan changed: Dinner and a walk", "plan_changed");
      expect(told.find((n) => n.userId === one.a.userId)?.message).toBe(
        `${two.a.firstName} changed the place and the note. Please answer again.`,
      );
    },
  );

  it.skipIf(!onPostgres())(
    "an answer, a change, a cancel or a share while one of the four deletes their account waits for the person first, never holding the plan the deletion cancels",
    async () => {
      const { one, two, conversationId } = await connected();
      const created = (await plan.propose(conversationId, dinner(daysAhead(15)), one.a.headers)).json.data;
      const writes = [
        () => plan.answer(created.id, "going", two.a.headers),
        () => plan.change(created.id, { title: "Lunch instead" }, two.a.headers),
        () => plan.share(created.id, one.a.headers),
        () => plan.cancel(created.id, {}, one.a.headers),
      ];
      for (const write of writes) {
        const { waited, answer } = await nextWhileWaiting(
          // What an account's deletion takes first (lib/account/deletion.ts): the person's row, then their couple...
          async (tx) => {
            await tx`select id from users where id = ${one.b.userId} for update`;
            await tx`select id from couples where id = ${one.coupleId} for update`;
          },
          write,
          // ...then its couple's upcoming plans (cancelPlansOfCouple): NOWAIT fails if the write holds the plan.
          (tx) => tx`select id from plans where id = ${created.id} for no key update nowait`,
        );
        expect(waited).toBe(true);
        expect(answer.status).toBeLessThan(300);
      }
    },
  );

  it.skipIf(!onPostgres())("the same plan sent twice at once (a double click, both partners) is proposed and told once", async () => {
    const { one, conversationId } = await connected();
    const title = `Dinner ${randomUUID().slice(0, 8)}`;
    const answers = await whileHeld(
      (tx) => tx`select id from conversations where id = ${conversationId} for update`,
      [
        () => plan.propose(conversationId, dinner(daysAhead(15), { title }), one.a.headers),
        () => plan.propose(conversationId, dinner(daysAhead(15), { title }), one.b.headers),
      ],
    );
    expect(answers.map((answer) => answer.status)).toEqual([201, 201]);
    expect(answers[0]!.json.data.id, "both answer the one plan").toBe(answers[1]!.json.data.id);
    expect(await planCount(conversationId)).toBe(1);
    const told = await notified(`New plan: ${title}`, "plan_proposed");
    expect(new Set(told.map((n) => n.userId)).size, "each of the others told once").toBe(told.length);
    // Another time is another plan.
    expect((await plan.propose(conversationId, dinner(daysAhead(16), { title }), one.a.headers)).status).toBe(201);
    expect(await planCount(conversationId)).toBe(2);
  });

  it("the same plan sent again once the first is proposed answers it before looking its place up again", async () => {
    const { one, conversationId } = await connected();
    const db = await getDb();
    const details = vi.fn(gazetteerProvider.details);
    const places = { ...gazetteerProvider, details };
    const same = { ...dinner(daysAhead(15), { title: `Dinner ${randomUUID().slice(0, 8)}` }), endsAt: null, note: null };
    const b = { ...actingA(one), userId: one.b.userId, firstName: one.b.firstName };
    const first = await proposePlan(db, actingA(one), conversationId, same, { places });
    const again = await proposePlan(db, b, conversationId, same, { places });
    expect(again.id).toBe(first.id);
    expect(details).toHaveBeenCalledTimes(1);
    const lookups = await db
      .select({ subject: rateLimitHits.subject })
      .from(rateLimitHits)
      .where(and(eq(rateLimitHits.bucket, LIMITS.placeLookupPerUser.bucket), inArray(rateLimitHits.subject, [one.a.userId, one.b.userId])));
    expect(lookups).toEqual([{ subject: one.a.userId }]);
  });

  it("looks a picked place up with the search session the pick ended, proposed or changed; a bad session is a 400", async () => {
    const { one, conversationId } = await connected();
    const details = vi.spyOn(gazetteerProvider, "details");
    try {
      const proposing = "3519edfe-0f75-4a30-bfe4-7cbd89340b2c";
      const made = await plan.propose(conversationId, dinner(daysAhead(15), { sessionToken: proposing }), one.a.headers);
      expect(made.status).toBe(201);
      expect(details).toHaveBeenLastCalledWith(PLACES.lisbon, proposing);
      const changing = "0b1c4f7e-2a3d-4c5e-9f60-718293a4b5c6";
      const changed = await plan.change(made.json.data.id, { placeId: PLACES.madrid, sessionToken: changing }, one.a.headers);
      expect(changed.status).toBe(200);
      expect(details).toHaveBeenLastCalledWith(PLACES.madrid, changing);
      expect(details).toHaveBeenCalledTimes(2);
      // The session alone changes nothing.
      const alone = await plan.change(made.json.data.id, { sessionToken: changing }, one.a.headers);
      expect(alone.status).toBe(400);
      const refused = await plan.propose(conversationId, dinner(daysAhead(16), { sessionToken: "not a token" }), one.a.headers);
      expect(refused.status).toBe(400);
      expect(refused.json.error.message).toBe("session_token must be a UUID");
      expect(details).toHaveBeenCalledTimes(2);
    } finally {
      details.mockRestore();
    }
  });

  it("allows at most 3 upcoming plans per conversation; a cancelled one frees its place", async () => {
    const { one, two, conversationId } = await connected();
    const made = [];
    for (const days of [10, 11, 12]) made.push((await plan.propose(conversationId, dinner(daysAhead(days)), one.a.headers)).json.data);
    const fourth = await plan.propose(conversationId, dinner(daysAhead(13)), two.a.headers);
    expect(fourth.status).toBe(409);
    expect(fourth.json.error.code).toBe("TOO_MANY_PLANS");
    expect(await planCount(conversationId)).toBe(3);
    await plan.cancel(made[0].id, {}, one.a.headers);
    expect((await plan.propose(conversationId, dinner(daysAhead(13)), two.a.headers)).status).toBe(201);
    const soonest = (await plan.upcoming(one.a.headers)).json.data.map((p: { startsAt: string }) => p.startsAt.slice(0, 10));
    expect(soonest).toEqual([daysAhead(11), daysAhead(12), daysAhead(13)].map((d) => d.slice(0, 10)));
  });
  it("lists a conversation's open upcoming plans however many cancelled ones come before them, the rest by start", async () => {
    const { one, two, conversationId } = await connected();
    const live = (await plan.propose(conversationId, dinner(daysAhead(5)), one.a.headers)).json.data;
    const db = await getDb();
    const tomorrow = new Date(Date.now() + 86_400_000);
    await db.insert(plans).values(
      Array.from({ length: UPCOMING_LIST_MAX }, (_, n) => ({
        conversationId,
        title: `Called off ${n}`,
        startsLocal: daysAhead(1),
        timeZone: "Europe/Lisbon",
        startsAt: tomorrow,
        placeName: "Lisbon",
        cancelledAt: new Date(),
      })),
    );
    const listed: { id: string; startsAt: string }[] = (await plan.ofConversation(conversationId, two.a.headers)).json.data;
    expect(listed.length).toBeLessThanOrEqual(UPCOMING_LIST_MAX);
    expect(listed.at(-1)!.id).toBe(live.id);
    expect(listed.map((p) => p.startsAt)).toEqual(listed.map((p) => p.startsAt).sort());
  });
});

describe("a muted conversation's plans", () => {
  it("notify no one who muted it, as its messages do: proposed, changed, cancelled, reminded; its cards still change live", async () => {
    const { one, two, conversationId } = await connected();
    expect((await talk.mute(conversationId, true, two.a.headers)).status).toBe(200);
    const made = await plan.propose(conversationId, dinner(daysAhead(15), { title: "Quiet dinner" }), one.a.headers);
    expect(made.status).toBe(201);
    const id = made.json.data.id as string;
    expect((await plan.answer(id, "going", two.a.headers)).status).toBe(200);
    expect((await plan.change(id, { note: "Bring a coat" }, one.b.headers)).status).toBe(200);
    const db = await getDb();
    const [row] = await db.select({ startsAt: plans.startsAt }).from(plans).where(eq(plans.id, id));
    await transaction(db, (tx) => sendPlanReminders(tx, new Date(row!.startsAt.getTime() - 3_600_000)));
    expect((await plan.cancel(id, {}, one.a.headers)).status).toBe(200);
    const told = await db
      .select({ userId: notifications.userId, type: notifications.type })
      .from(notifications)
      .where(eq(notifications.conversationId, conversationId));
    expect(told.filter((n) => n.userId === two.a.userId)).toEqual([]);
    expect(
      told
        .filter((n) => n.userId === two.b.userId)
        .map((n) => n.type)
        .sort(),
    ).toEqual(["plan_cancelled", "plan_changed", "plan_proposed"]);
    const live = await db
      .select({ userId: liveEvents.userId })
      .from(liveEvents)
      .where(and(eq(liveEvents.kind, "plan"), eq(liveEvents.subjectId, id), eq(liveEvents.userId, two.a.userId)));
    expect(live.length).toBeGreaterThan(0);
  });
});

describe("a restricted couple, and the limits", () => {
  it("refuses a restricted couple's proposals and changes as it refuses its messages (403 ACCOUNT_RESTRICTED); nothing stored or sent", async () => {
    const { one, two, conversationId } = await connected();
    const before = (await plan.propose(conversationId, dinner(), one.a.headers)).json.data;
    const { headers } = await moderatorCouple();
    expect((await sanctions.act(one.coupleId, { kind: "restrict", reason: "spam", days: 7 }, headers)).status).toBe(201);
    const message = await talk.send(conversationId, { body: "Hello?" }, one.a.headers);
    expect(message.status).toBe(403);
    for (const refused of [
      await plan.propose(conversationId, dinner(daysAhead(16), { note: "Buy now at spam.example" }), one.b.headers),
      await plan.change(before.id, { note: "Buy now at spam.example" }, one.a.headers),
    ]) {
      expect(refused.status).toBe(403);
      expect(refused.json.error).toEqual(message.json.error);
      expect(refused.json.restriction).toEqual(message.json.restriction);
    }
    expect(await planCount(conversationId)).toBe(1);
    expect((await plan.read(before.id, two.a.headers)).json.data).toMatchObject({ note: null, sequence: 0 });
    const db = await getDb();
    const sent = await db
      .select({ type: notifications.type })
      .from(notifications)
      .where(and(eq(notifications.conversationId, conversationId), inArray(notifications.type, ["plan_proposed", "plan_changed"])));
    expect(sent).toEqual([{ type: "plan_proposed" }, { type: "plan_proposed" }, { type: "plan_proposed" }]);
    // It still answers, and the other couple still plans.
    expect((await plan.answer(before.id, "going", one.b.headers)).status).toBe(200);
    expect((await plan.change(before.id, { venue: "Cervejaria Ramiro" }, two.a.headers)).status).toBe(200);
    // It may call its plan off, but with no words to the others.
    const withWords = await plan.cancel(before.id, { reason: "Buy now at spam.example" }, one.a.headers);
    expect(withWords.status).toBe(403);
    expect(withWords.json.error).toEqual(message.json.error);
    expect((await plan.read(before.id, two.a.headers)).json.data.cancelledAt).toBeNull();
    const cancelled = await plan.cancel(before.id, {}, one.a.headers);
    expect(cancelled.status).toBe(200);
    expect(cancelled.json.data).toMatchObject({ cancelReason: null });
    expect(cancelled.json.data.cancelledAt).not.toBeNull();
  });

  it("limits each person's proposals and changes together (429 with Retry-After); a refused or empty one costs nothing, the partner goes on", async () => {
    const { one, conversationId } = await connected();
    const made = (await plan.propose(conversationId, dinner(), one.a.headers)).json.data;
    expect((await plan.propose(conversationId, dinner(daysAhead(-1)), one.a.headers)).status).toBe(400);
    expect((await plan.change(made.id, { title: "Dinner and a walk" }, one.a.headers)).status).toBe(200);
    for (let n = 1; n < PLAN_LIMITS.perMinute.limit; n++)
      expect((await plan.change(made.id, { title: `Dinner, take ${n}` }, one.a.headers)).status).toBe(200);
    for (const refused of [
      await plan.change(made.id, { title: "One more" }, one.a.headers),
      await plan.propose(conversationId, dinner(daysAhead(16)), one.a.headers),
    ]) {
      expect(refused.status).toBe(429);
      expect(refused.json.error).toEqual({ code: "RATE_LIMITED", message: PLAN_LIMITS.perMinute.message });
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    expect((await plan.read(made.id, one.b.headers)).json.data.title).toBe(`Dinner, take ${PLAN_LIMITS.perMinute.limit - 1}`);
    expect(await planCount(conversationId)).toBe(1);
    expect((await plan.change(made.id, { title: "From the partner" }, one.b.headers)).status).toBe(200);
    // A day's worth spent: refused the same way.
    const db = await getDb();
    await db
      .insert(rateLimitHits)
      .values(Array.from({ length: PLAN_LIMITS.perDay.limit }, () => ({ bucket: PLAN_LIMITS.perDay.bucket, subject: one.b.userId })));
    expect((await plan.change(made.id, { title: "Again" }, one.b.headers)).status).toBe(429);
  });

  it("counts each place it looks up against the person's and the address's place lookups, as every place chosen is: past the limit 429, the provider not asked", async () => {
    const { one, conversationId } = await connected();
    const db = await getDb();
    const details = vi.fn(gazetteerProvider.details);
    const places = { ...gazetteerProvider, details };
    const past = { ...dinner(daysAhead(-1)), endsAt: null, note: null, venue: null };
    const lookups = LIMITS.placeLookupPerUser.limit;
    for (let n = 0; n < lookups; n++)
      await expect(proposePlan(db, actingA(one), conversationId, past, { places })).rejects.toMatchObject({ code: "VALIDATION_ERROR" });
    await expect(proposePlan(db, actingA(one), conversationId, past, { places })).rejects.toMatchObject({
      code: "RATE_LIMITED",
      message: LIMITS.placeLookupPerUser.message,
    });
    expect(details).toHaveBeenCalledTimes(lookups);

    // A closed or since-changed plan refuses a new place before looking it up.
    const made = (await plan.propose(conversationId, dinner(), one.b.headers)).json.data;
    const b = { ...actingA(one), userId: one.b.userId, firstName: one.b.firstName };
    await expect(changePlan(db, b, made.id, { placeId: PLACES.madrid, sequence: made.sequence + 1 }, { places })).rejects.toMatchObject({
      code: "PLAN_CHANGED",
    });
    await plan.cancel(made.id, {}, one.b.headers);
    await expect(changePlan(db, b, made.id, { placeId: PLACES.madrid }, { places })).rejects.toMatchObject({ code: "PLAN_CLOSED" });
    expect(details).toHaveBeenCalledTimes(lookups);

    // The caller's address pays too.
    const address = freshAddress();
    for (let n = 0; n < LIMITS.placeLookupPerAddress.limit; n++) await recordHit(db, LIMITS.placeLookupPerAddress, address);
    const fromThere = await plan.propose(conversationId, dinner(), { ...one.b.headers, "x-forwarded-for": address });
    expect(fromThere.status).toBe(429);
    expect(fromThere.json.error.code).toBe("RATE_LIMITED");
  });
});

describe("the data export", () => {
  it("lists the plans a person took part in with their own words and answers, never another's note, answer or 'How was it?'", async () => {
    const { one, two, conversationId } = await connected();
    const db = await getDb();
    const created = (await plan.propose(conversationId, dinner(daysAhead(15), { note: "We know a quiet table" }), one.a.headers)).json.data;
    await plan.answer(created.id, "maybe", one.b.headers);
    await plan.answer(created.id, "going", two.a.headers);
    expect((await plan.change(created.id, { note: "Theo's note" }, two.b.headers)).status).toBe(200);
    const other = (await plan.propose(conversationId, dinner(daysAhead(20)), two.a.headers)).json.data;
    expect((await plan.cancel(other.id, { reason: "Maya is away" }, two.b.headers)).status).toBe(200);

    const proposer = (await exportAccount(db, one.a.userId)).plans;
    expect(proposer).toEqual([
      expect.objectContaining({ id: created.id, title: "Dinner and a walk", proposedByYou: true, yourNote: null, yourAnswer: null }),
    ]);
    expect((await exportAccount(db, one.b.userId)).plans).toEqual([expect.objectContaining({ id: created.id, yourAnswer: "maybe" })]);
    const canceller = (await exportAccount(db, two.b.userId)).plans;
    expect(canceller.map((p) => [p.id, p.yourNote, p.yourCancelReason])).toEqual([
      [created.id, "Theo's note", null],
      [other.id, null, "Maya is away"],
    ]);
    // (Their notifications, exported beside, tell what the others did, as they were told it.)
    expect(JSON.stringify((await exportAccount(db, one.b.userId)).plans)).not.toMatch(/Theo's note|Maya is away|"going"/);
  });
  it.skipIf(!onPostgres())(
    "reads the upcoming plans in five statements: the plans, their people with first names, answers and 'How was it?' side by side, then the shared links",
    async () => {
      const { one, conversationId } = await connected();
      await plan.propose(conversationId, dinner(), one.a.headers);
      await plan.propose(conversationId, dinner(daysAhead(20)), one.a.headers);
      const { logging, logged } = recordingStatements(await getDb());
      const upcoming = await upcomingPlans(logging, actingA(one));
      expect(upcoming).toHaveLength(2);
      expect(upcoming[0]!.answers.map((person) => person.firstName)).toContain(one.b.firstName);
      // The plans, then their people (with first names), answers and feedback side by side, then the couple's links.
      expect(logged).toHaveLength(5);
    },
  );

  it("finds a person's plans, answers, 'How was it?' and shared links by index, never reading them all", async () => {
    const { one, conversationId } = await connected();
    const db = await getDb();
    await plan.propose(conversationId, dinner(), one.a.headers);
    const exported = await queryPlan(sql`${plansForExport(db, one.a.userId)}`);
    expect(wholeScans(exported)).toEqual([]);
    expect(exported).toMatch(/plan_answers_user_idx/);
    expect(exported).toMatch(/plan_feedback_user_idx/);
    // An account's deletion (the foreign keys' cascades) and a couple's.
    for (const [statement, index] of [
      [sql`delete from plan_answers where user_id = ${one.a.userId}`, "plan_answers_user_idx"],
      [sql`delete from plan_feedback where user_id = ${one.a.userId}`, "plan_feedback_user_idx"],
      [sql`delete from plan_shares where couple_id = ${one.coupleId}`, "plan_shares_couple_idx"],
    ] as const) {
      const planned = await queryPlan(statement);
      expect(wholeScans(planned)).toEqual([]);
      expect(planned).toContain(index);
    }
  });
});

describe("'Add to calendar'", () => {
  it("gives the four an .ics file whose UID stays and whose SEQUENCE rises, cancelled when cancelled; 404 to anyone else", async () => {
    const { one, two, conversationId } = await connected();
    const created = (await plan.propose(conversationId, dinner("2026-12-14T19:30"), one.a.headers)).json.data;
    const first = await plan.calendar(created.id, two.b.headers);
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
    const read = (text: string) => {
      const calendar = new ICAL.Component(ICAL.parse(text));
      for (const zone of calendar.getAllSubcomponents("vtimezone")) ICAL.TimezoneService.register(zone);
      const vevent = calendar.getFirstSubcomponent("vevent")!;
      return { event: new ICAL.Event(vevent), status: vevent.getFirstPropertyValue("status") };
    };
    const before = read(first.text);
    expect(before.event.startDate.toJSDate().toISOString()).toBe("2026-12-14T19:30:00.000Z");
    await plan.change(created.id, { startsAt: "2026-12-14T20:00" }, two.a.headers);
    await plan.cancel(created.id, { reason: "Snow" }, one.b.headers);
    const after = read((await plan.calendar(created.id, one.a.headers)).text);
    expect(after.event.uid).toBe(before.event.uid);
    expect([before.event.sequence, after.event.sequence]).toEqual([0, 2]);
    expect(after.status).toBe("CANCELLED");
    const stranger = await messagingCouple();
    expect((await plan.calendar(created.id, stranger.a.headers)).status).toBe(404);
    expect((await plan.calendar(created.id, {})).status).toBe(401);
  });
});

describe("hostile plans", () => {
  it("refuses bad times, places, texts and fields with 400 and stores nothing", async () => {
    const { one, conversationId } = await connected();
    const cases: [unknown, string][] = [
      [dinner(daysAhead(-1)), "Please choose a time in the future"],
      [dinner(daysAhead(181)), "Plans can be made at most 180 days ahead"],
      [dinner("2027-03-28T01:30"), "This time does not exist there: the clocks change that night. Please choose another time"],
      [dinner(daysAhead(5), { title: "x".repeat(121) }), "What you plan must be no more than 120 characters"],
      [dinner(daysAhead(5), { title: "Dinner\u0000" }), "What you plan contains characters that are not allowed"],
      [dinner(daysAhead(5), { title: "Dinner\r\nATTENDEE:evil" }), "What you plan contains characters that are not allowed"],
      [dinner(daysAhead(5), { venue: "Bar\u0000" }), "The venue contains characters that are not allowed"],
      [dinner(daysAhead(5), { note: "n".repeat(501) }), "The note must be no more than 500 characters"],
      [dinner(daysAhead(5), { placeId: "geonames:999999999" }), "This place could not be found. Please choose it again from the list"],
      [dinner(daysAhead(5), { placeId: "Mars/Olympus_Mons" }), "This place could not be found. Please choose it again from the list"],
      [dinner(daysAhead(5), { endsAt: daysAhead(5, "18:00") }), "The end must be after the start"],
      [dinner("2026-12-14T19:30+05:00"), "Please choose a date and start time like 2026-12-14T19:30"],
      [{ title: "Dinner", placeId: PLACES.lisbon }, "Please choose a date and start time like 2026-12-14T19:30"],
    ];
    for (const [body, message] of cases) {
      const res = await plan.propose(conversationId, body, one.a.headers);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.json.error.message).toBe(message);
    }
    expect(await planCount(conversationId)).toBe(0);
    // A zone is never taken from the client: the place's is used.
    const zoned = await plan.propose(conversationId, dinner(daysAhead(5), { timeZone: "Mars/Olympus_Mons" }), one.a.headers);
    expect(zoned.json.data.timeZone).toBe("Europe/Lisbon");
    expect((await plan.answer(zoned.json.data.id, "yes", one.a.headers)).status).toBe(400);
    expect((await plan.change(zoned.json.data.id, { startsAt: daysAhead(-2) }, one.a.headers)).status).toBe(400);
    expect((await plan.read(zoned.json.data.id, one.a.headers)).json.data.sequence).toBe(0);
  });

  it("answers 404 to a fifth person and to another pair's plan, and stores nothing", async () => {
    const { one, conversationId } = await connected();
    const other = await connected();
    const fifth = await messagingCouple();
    const created = (await plan.propose(conversationId, dinner(), one.a.headers)).json.data;
    const h = fifth.a.headers;
    const outsider = other.one.a.headers;
    for (const res of [
      await plan.propose(conversationId, dinner(), h),
      await plan.ofConversation(conversationId, h),
      await plan.read(created.id, h),
      await plan.change(created.id, { title: "Mine now" }, h),
      await plan.cancel(created.id, {}, h),
      await plan.answer(created.id, "going", h),
      await plan.read(created.id, outsider),
      await plan.answer(created.id, "going", outsider),
      await plan.change(created.id, { title: "Mine now" }, outsider),
      await plan.read(randomUUID(), one.a.headers),
    ]) {
      expect(res.status).toBe(404);
      expect(JSON.stringify(res.json)).not.toContain("Dinner");
    }
    expect((await plan.read("not-an-id", one.a.headers)).status).toBe(400);
    expect((await plan.upcoming(h)).json.data).toEqual([]);
    expect((await plan.upcoming(h, "?upcoming=yes")).status).toBe(400);
    expect((await plan.upcoming({})).status).toBe(401);
    const db = await getDb();
    expect(await db.select().from(planAnswers).where(eq(planAnswers.planId, created.id))).toEqual([]);
    expect((await plan.read(created.id, one.a.headers)).json.data).toMatchObject({ title: "Dinner and a walk", sequence: 0 });
  });

  it.skipIf(!onPostgres())(
    "holds none of the four people before a fifth person's 404: every write answers while a member's row is held",
    async () => {
      const { one, two, conversationId } = await connected();
      const fifth = await messagingCouple();
      const created = (await plan.propose(conversationId, dinner(), one.a.headers)).json.data;
      const h = fifth.a.headers;
      for (const write of [
        () => plan.propose(conversationId, dinner(daysAhead(16)), h),
        () => plan.change(created.id, { title: "Mine now" }, h),
        () => plan.cancel(created.id, {}, h),
        () => plan.answer(created.id, "going", h),
        () => plan.share(created.id, h),
        () => plan.stopSharing(created.id, h),
        () => plan.feedback(created.id, "great", h),
      ]) {
        // What an account's deletion holds first (lib/account/deletion.ts).
        const { waited, answer } = await waitsOn((tx) => tx`select id from users where id = ${two.b.userId} for update nowait`, write);
        expect(waited, String(write)).toBe(false);
        expect(answer.status, String(write)).toBe(404);
      }
    },
  );

  it("refuses a plan in a conversation that ended (403) and stores nothing", async () => {
    const { one, two, conversationId } = await connected();
    await block(two.coupleId, one.a.headers);
    const res = await plan.propose(conversationId, dinner(), one.a.headers);
    expect(res.status).toBe(403);
    expect(res.json.error.code).toBe("CONVERSATION_ENDED");
    expect(await planCount(conversationId)).toBe(0);
  });
});

describe("time zones", () => {
  it("shows a plan in Lisbon to couples in Madrid and New York in Lisbon's time, with their own beside it", async () => {
    const { one, two, conversationId } = await connected();
    const created = (await plan.propose(conversationId, dinner("2026-12-14T19:30"), one.a.headers)).json.data;
    expect(created.startsAt).toBe("2026-12-14T19:30:00+00:00");
    const seenByBoth = [(await plan.read(created.id, one.a.headers)).json.data, (await plan.read(created.id, two.b.headers)).json.data];
    for (const seen of seenByBoth) expect(seen.startsAt).toBe("2026-12-14T19:30:00+00:00");
    expect(timeForViewer(seenByBoth[0], "Europe/Madrid")).toBe("19:30 in Lisbon, 20:30 for you");
    expect(timeForViewer(seenByBoth[1], "America/New_York")).toBe("19:30 in Lisbon, 14:30 for you");
    const inMadrid = (await plan.propose(conversationId, { ...dinner("2026-12-15T19:30"), placeId: PLACES.madrid }, two.a.headers)).json
      .data;
    expect(inMadrid).toMatchObject({ timeZone: "Europe/Madrid", startsAt: "2026-12-15T19:30:00+01:00" });
    const inNewYork = (await plan.propose(conversationId, { ...dinner("2026-12-16T19:30"), placeId: PLACES.newYork }, two.a.headers)).json
      .data;
    expect(inNewYork).toMatchObject({ timeZone: "America/New_York", startsAt: "2026-12-16T19:30:00-05:00" });
    expect(timeForViewer(inNewYork, "Europe/Lisbon")).toBe("19:30 in New York City, 00:30 Thu for you");
  });

  it("keeps the wall clock across the March change when the plan moves a day (23 hours apart, not 24)", async () => {
    const { one, conversationId } = await connected();
    const created = (await plan.propose(conversationId, dinner("2027-03-27T19:30"), one.a.headers)).json.data;
    expect(created.startsAt).toBe("2027-03-27T19:30:00+00:00");
    const moved = (await plan.change(created.id, { startsAt: "2027-03-28T19:30" }, one.a.headers)).json.data;
    expect(moved.startsAt).toBe("2027-03-28T19:30:00+01:00");
    expect(new Date(moved.startsAt).getTime() - new Date(created.startsAt).getTime()).toBe(23 * 3_600_000);
  });

  it("proposed before the October change for a date after it, stays at 19:30 in Lisbon, stored as the instant then", async () => {
    const { one, conversationId } = await connected();
    const db = await getDb();
    const beforeChange = new Date("2027-10-20T10:00:00Z");
    const made = await proposePlan(
      db,
      actingA(one),
      conversationId,
      { ...dinner("2027-11-02T19:30"), endsAt: null, note: null, venue: null },
      { now: beforeChange },
    );
    expect(made.startsAt).toBe("2027-11-02T19:30:00+00:00");
    const sameDayBefore = await proposePlan(
      db,
      actingA(one),
      conversationId,
      { ...dinner("2027-10-30T19:30"), endsAt: null, note: null, venue: null },
      { now: beforeChange },
    );
    expect(sameDayBefore.startsAt).toBe("2027-10-30T19:30:00+01:00");
    const [row] = await db
      .select({ startsAt: plans.startsAt, startsLocal: plans.startsLocal })
      .from(plans)
      .where(inArray(plans.id, [made.id]));
    expect(row).toEqual({ startsAt: new Date("2027-11-02T19:30:00Z"), startsLocal: "2027-11-02T19:30" });
  });
});

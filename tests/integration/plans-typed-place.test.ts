import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { plans } from "@/db/schema";
import { PLAN_TEXTS } from "@/lib/plans/rules";
import { connected } from "../support/messages";
import { daysAhead, PLACES, plan } from "../support/plans";

/** A place typed by hand while the place search is down: its name as typed, the zone chosen with it. */
const typed = (extra: Record<string, unknown> = {}) => ({
  title: "Dinner",
  startsAt: daysAhead(12),
  placeName: "Café Luso, Bairro Alto",
  timeZone: "Europe/Lisbon",
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

describe("a place typed by hand", () => {
  it("is kept as typed, in the zone chosen for it, and can become a place from the search and back", async () => {
    const { one, two, conversationId } = await connected();
    const made = await plan.propose(conversationId, typed({ startsAt: daysAhead(12, "20:00") }), one.a.headers);
    expect(made.status).toBe(201);
    expect(made.json.data).toMatchObject({
      place: { placeId: null, name: "Café Luso, Bairro Alto", city: null, country: null },
      timeZone: "Europe/Lisbon",
    });
    expect(made.json.data.startsAt).toMatch(new RegExp(`^${daysAhead(12, "20:00")}:00(\\+0[01]:00)$`));
    const id = made.json.data.id as string;
    expect((await plan.calendar(id, two.a.headers)).text).toContain("LOCATION:Café Luso\\, Bairro Alto");

    await plan.answer(id, "going", two.a.headers);
    const chosen = await plan.change(id, { placeId: PLACES.madrid }, two.b.headers);
    expect(chosen.json.data).toMatchObject({ place: { placeId: PLACES.madrid }, timeZone: "Europe/Madrid" });
    expect(chosen.json.data.answers.every((a: { answer: string | null }) => a.answer === null)).toBe(true);
    const back = await plan.change(id, { placeName: "Tasca do Chico", timeZone: "Europe/Lisbon" }, one.b.headers);
    expect(back.json.data).toMatchObject({ place: { placeId: null, name: "Tasca do Chico" }, timeZone: "Europe/Lisbon" });
    // The same typed place again changes nothing.
    const same = await plan.change(id, { placeName: "Tasca do Chico", timeZone: "Europe/Lisbon" }, one.b.headers);
    expect(same.json.data.sequence).toBe(back.json.data.sequence);
  });

  it("refuses a zone that does not exist, a typed place without a zone, both kinds of place or none, and stores nothing", async () => {
    const { one, conversationId } = await connected();
    const cases: [unknown, string, string][] = [
      [typed({ timeZone: "Mars/Olympus_Mons" }), "timeZone", "Please choose the time zone of the place from the list"],
      [typed({ timeZone: undefined }), "timeZone", "Please choose the time zone of the place from the list"],
      [typed({ timeZone: "x".repeat(65) }), "timeZone", "Please choose the time zone of the place from the list"],
      [typed({ placeId: PLACES.lisbon }), "placeName", "Please either choose a place from the search or type one, not both"],
      [typed({ placeName: undefined }), "placeId", "Please choose where you will meet"],
      [typed({ placeName: "Bar\u0000" }), "placeName", "The place contains characters that are not allowed"],
      [typed({ placeName: "p".repeat(121) }), "placeName", "The place must be no more than 120 characters"],
    ];
    for (const [body, field, message] of cases) {
      const res = await plan.propose(conversationId, body, one.a.headers);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.json.error.fields?.[field] ?? res.json.error.message).toBe(message);
    }
    expect(await planCount(conversationId)).toBe(0);
  });

  it("refuses a time zone sent without the typed place it belongs to (400), rather than answer 200 and change nothing", async () => {
    const { one, conversationId } = await connected();
    const made = await plan.propose(conversationId, typed(), one.a.headers);
    const id = made.json.data.id as string;
    const zoneAlone = await plan.change(id, { timeZone: "Europe/Madrid" }, one.a.headers);
    expect(zoneAlone.status).toBe(400);
    expect(zoneAlone.json.error.fields?.timeZone ?? zoneAlone.json.error.message).toBe(PLAN_TEXTS.zoneWithoutPlace);
    expect((await plan.read(id, one.a.headers)).json.data).toMatchObject({ sequence: made.json.data.sequence, timeZone: "Europe/Lisbon" });
    // With the place it belongs to, the zone is changed.
    const moved = await plan.change(id, { placeName: "Café Luso, Bairro Alto", timeZone: "Europe/Madrid" }, one.a.headers);
    expect(moved.json.data).toMatchObject({ timeZone: "Europe/Madrid" });
  });
});

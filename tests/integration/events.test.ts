import { and, eq, inArray } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { GET as listRoute, POST as createRoute } from "@/app/api/events/route";
import { POST as waitlistRoute } from "@/app/api/events/waitlist/route";
import { getDb } from "@/db/client";
import { couples, eventDrafts, eventsWaitlist, rateLimitHits } from "@/db/schema";
import { EVENT_DRAFTS_PAGE_SIZE } from "@/lib/events/rules";
import { draftsForExport } from "@/lib/events/service";
import { gazetteerProvider } from "@/lib/places/gazetteer";
import { LIMITS } from "@/lib/rate-limit";
import { call } from "../support/api";
import { LISBON } from "../support/couples";
import { forumCouple, type Headers } from "../support/forum";

const list = (h: Headers, cursor?: string) =>
  call(listRoute, "GET", cursor === undefined ? "/api/events" : `/api/events?cursor=${encodeURIComponent(cursor)}`, { headers: h });
const create = (body: unknown, h: Headers) => call(createRoute, "POST", "/api/events", { body, headers: h });
const waitlist = (h: Headers) => call(waitlistRoute, "POST", "/api/events/waitlist", { headers: h });

const inAWeek = () => new Date(Date.now() + 7 * 86_400_000).toISOString();
const event = (overrides: Record<string, unknown> = {}) => ({
  title: "Sunset wine tasting",
  startsAt: inAWeek(),
  placeId: LISBON,
  capacity: 12,
  priceCents: 2500,
  currency: "EUR",
  description: "Four wines from the Douro, on a rooftop, with cheese.",
  ...overrides,
});

async function flagged() {
  const couple = await forumCouple();
  const db = await getDb();
  await db.update(couples).set({ canCreatePaidEvents: true }).where(eq(couples.id, couple.coupleId));
  return couple;
}

describe("events", () => {
  it("a flagged couple drafts an event (201) that only its partners see", async () => {
    const us = await flagged();
    const others = await flagged();
    const res = await create(event(), us.a.headers);
    expect(res.status).toBe(201);
    expect(res.json.data).toMatchObject({
      title: "Sunset wine tasting",
      capacity: 12,
      priceCents: 2500,
      currency: "EUR",
      status: "draft",
      placeId: LISBON,
    });
    expect(res.json.data.place).toContain("Lisbon");
    const mine = await list(us.b.headers);
    expect(mine.status).toBe(200);
    expect(mine.json.data.map((d: { id: string }) => d.id)).toEqual([res.json.data.id]);
    expect((await list(others.a.headers)).json.data).toEqual([]);
  });

  it("lists every draft, newest first, a keyset page at a time: none beyond the first page is out of reach", async () => {
    const us = await flagged();
    const others = await flagged();
    const db = await getDb();
    // More than the 100 the list once stopped at.
    const count = 105;
    const start = Date.now() - count * 60_000;
    const saved = await db
      .insert(eventDrafts)
      .values(
        Array.from({ length: count }, (_, i) => ({
          coupleId: us.coupleId,
          title: `Draft ${i}`,
          startsAt: new Date(inAWeek()),
          placeId: LISBON,
          placeName: "Lisbon, Portugal",
          capacity: 12,
          priceCents: 2500,
          currency: "EUR",
          description: "Four wines from the Douro, on a rooftop, with cheese.",
          createdAt: new Date(start + i * 60_000),
        })),
      )
      .returning({ id: eventDrafts.id });
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page++) {
      const res = await list(us.b.headers, cursor);
      expect(res.status).toBe(200);
      expect(res.json.data.length).toBeLessThanOrEqual(EVENT_DRAFTS_PAGE_SIZE);
      seen.push(...res.json.data.map((d: { id: string }) => d.id));
      if (!res.json.pagination.hasMore) break;
      cursor = res.json.pagination.nextCursor;
    }
    expect(seen).toEqual(saved.map((row) => row.id).reverse());
    // The data export holds them all.
    expect((await draftsForExport(db, us.coupleId)).map((draft) => draft.id)).toEqual(seen);
    // A cursor is the couple's own list's: another couple's, or a forged one, is refused.
    const first = (await list(us.a.headers)).json.pagination.nextCursor as string;
    expect((await list(others.a.headers, first)).status).toBe(400);
    expect((await list(us.a.headers, "nonsense")).status).toBe(400);
  });

  it("the same draft sent twice at once (a double click, both partners) is saved once", async () => {
    const us = await flagged();
    const draft = event();
    const answers = await Promise.all([create(draft, us.a.headers), create(draft, us.b.headers)]);
    expect(answers.map((res) => res.status)).toEqual([201, 201]);
    expect(answers[0]!.json.data.id, "both answer the one draft").toBe(answers[1]!.json.data.id);
    expect((await list(us.a.headers)).json.data).toHaveLength(1);
    // Another draft is its own.
    expect((await create({ ...draft, capacity: 20 }, us.a.headers)).status).toBe(201);
    expect((await list(us.a.headers)).json.data).toHaveLength(2);
  });

  it("the same draft sent again once the first is saved costs no second place lookup", async () => {
    const us = await flagged();
    const draft = event();
    const first = await create(draft, us.a.headers);
    const again = await create(draft, us.b.headers);
    expect(again.status).toBe(201);
    expect(again.json.data.id).toBe(first.json.data.id);
    const db = await getDb();
    const lookups = await db
      .select({ subject: rateLimitHits.subject })
      .from(rateLimitHits)
      .where(and(eq(rateLimitHits.bucket, LIMITS.placeLookupPerUser.bucket), inArray(rateLimitHits.subject, [us.a.userId, us.b.userId])));
    expect(lookups).toEqual([{ subject: us.a.userId }]);
  });

  it("looks the picked place up with the search session the pick ended; a bad session is a 400", async () => {
    const us = await flagged();
    const details = vi.spyOn(gazetteerProvider, "details");
    try {
      const sessionToken = "3519edfe-0f75-4a30-bfe4-7cbd89340b2c";
      expect((await create(event({ sessionToken }), us.a.headers)).status).toBe(201);
      expect(details).toHaveBeenCalledWith(LISBON, sessionToken);
      const refused = await create(event({ sessionToken: "not a token", capacity: 20 }), us.a.headers);
      expect(refused.status).toBe(400);
      expect(refused.json.error.message).toBe("session_token must be a UUID");
      expect(details).toHaveBeenCalledTimes(1);
    } finally {
      details.mockRestore();
    }
  });

  it("refuses a couple without the flag: 403 PAID_EVENTS_NOT_ALLOWED", async () => {
    const them = await forumCouple();
    const res = await create(event(), them.a.headers);
    expect(res.status).toBe(403);
    expect(res.json.error.code).toBe("PAID_EVENTS_NOT_ALLOWED");
    expect((await list(them.a.headers)).json.data).toEqual([]);
  });

  it("validates every field", async () => {
    const us = await flagged();
    const bad: [Record<string, unknown>, string][] = [
      [{ title: "" }, "Please give your event a title"],
      [{ title: "x".repeat(121) }, "Title must be no more than 120 characters"],
      [{ startsAt: new Date(Date.now() - 60_000).toISOString() }, "Please choose a date and time in the future"],
      [{ startsAt: "tomorrow" }, "Please choose a date and time"],
      [{ capacity: 1 }, "Capacity must be a whole number from 2 to 500"],
      [{ capacity: 2.5 }, "Capacity must be a whole number from 2 to 500"],
      [{ priceCents: -1 }, "Price must be from 0 to 10,000, in cents (whole numbers)"],
      [{ currency: "XYZ" }, "Currency must be one of EUR, GBP, USD, CHF, CAD, AUD"],
      [{ description: "short" }, "Please describe your event (at least 10 characters)"],
      [{ placeId: "" }, "place_id is required"],
    ];
    for (const [overrides, message] of bad) {
      const res = await create(event(overrides), us.a.headers);
      expect(res.status, JSON.stringify(overrides)).toBe(400);
      expect(res.json.error.message).toBe(message);
    }
    const unknownPlace = await create(event({ placeId: "geonames:999999999" }), us.a.headers);
    expect(unknownPlace.status).toBeGreaterThanOrEqual(400);
    expect(unknownPlace.status).toBeLessThan(500);
    expect((await create(event(), {})).status).toBe(401);
  });

  it("'Notify us when events launch' is stored once per couple", async () => {
    const us = await forumCouple();
    expect((await waitlist(us.a.headers)).status).toBe(200);
    expect((await waitlist(us.b.headers)).json.data).toEqual({ onWaitlist: true });
    const rows = await (await getDb()).select().from(eventsWaitlist).where(eq(eventsWaitlist.coupleId, us.coupleId));
    expect(rows).toHaveLength(1);
    expect((await waitlist({})).status).toBe(401);
  });
});

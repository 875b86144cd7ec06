import sharp from "sharp";
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { coupleShownPoints, couples, locations } from "@/db/schema";
import { coupleCreateSchema } from "@/lib/couples/schemas";
import { createCouple, updateCouple } from "@/lib/couples/service";
import { normalizeLocation } from "@/lib/locations/service";
import { completeStep1 } from "@/lib/onboarding/service";
import { profileCompletionSchema } from "@/lib/profile/schemas";
import { completeProfileSetup } from "@/lib/profile/service";
import { LIMITS, recordHit } from "@/lib/rate-limit";
import { INTEREST_VALUES } from "@/lib/interests/catalogue";
import { gazetteerProvider } from "@/lib/places/gazetteer";
import { POST as createEventRoute } from "@/app/api/events/route";
import { PUT as updateCoupleRoute } from "@/app/api/v2/couples/[id]/route";
import { POST as normalizeRoute } from "@/app/api/locations/normalize/route";
import { call, createUser, freshAddress } from "../support/api";
import { afterStep1, coupleBody, setupBody } from "../support/couples";
import { forumCouple } from "../support/forum";

const LISBON = "geonames:2267057";
const PORTO = "geonames:2735943";

/** The offline places provider, counting the lookups made (each is billed with Google). */
function countingPlaces() {
  const details = vi.fn(gazetteerProvider.details);
  return { places: { ...gazetteerProvider, details }, details };
}

/** Storage that keeps nothing: these tests are about place lookups. */
const storage = { put: async (key: string) => ({ url: `/api/images/${key}` }), read: async () => null, delete: async () => {} };

const step1 = async (placeId: string) => ({
  fields: { occupation: "Engineer", locationName: "Somewhere", locationPlaceId: placeId, interests: INTEREST_VALUES.slice(0, 6) },
  images: {
    userImage: new Uint8Array(
      await sharp({ create: { width: 400, height: 400, channels: 3, background: "#336699" } })
        .jpeg()
        .toBuffer(),
    ),
  },
});

const EVENT = {
  title: "Sunset wine tasting",
  startsAt: new Date(Date.now() + 7 * 86_400_000).toISOString(),
  placeId: LISBON,
  capacity: 12,
  priceCents: 2500,
  currency: "EUR",
  description: "Four wines from the Douro, on a rooftop, with cheese.",
};

describe("step 1's place", () => {
  it("reuses the place chosen a moment ago and asks the provider only for a different one", async () => {
    const user = await createUser();
    const db = await getDb();
    const { places, details } = countingPlaces();
    await normalizeLocation(
      db,
      { placeId: LISBON, entityType: "user", entityId: user.id, privacyLevel: undefined },
      { userId: user.id },
      { clientAddress: freshAddress() },
      places,
    );
    expect(details).toHaveBeenCalledTimes(1);

    const chosen = await step1(LISBON);
    const saved = await completeStep1(db, user.id, chosen.fields, chosen.images, { places, storage });
    expect(details).toHaveBeenCalledTimes(1);
    expect(saved.location).toMatchObject({ placeId: LISBON, location: "Lisbon, Portugal", countryCode: "PT" });

    const other = await step1(PORTO);
    await completeStep1(db, user.id, other.fields, other.images, { places, storage });
    expect(details).toHaveBeenCalledTimes(2);
    expect(details).toHaveBeenLastCalledWith(PORTO, undefined);
  });
});

describe("a billed lookup on every path", () => {
  it("refuses step 1's new place, a couple's new place and an event's place once the person is past their lookups an hour, asking the provider nothing; the partner still may", async () => {
    const db = await getDb();
    const us = await forumCouple();
    await db.update(couples).set({ canCreatePaidEvents: true }).where(eq(couples.id, us.coupleId));
    for (let i = 0; i < LIMITS.placeLookupPerUser.limit; i++) await recordHit(db, LIMITS.placeLookupPerUser, us.a.userId);
    const { places, details } = countingPlaces();
    const limited = { code: "RATE_LIMITED", message: "Too many location changes. Please try again later." };

    const chosen = await step1(PORTO);
    await expect(completeStep1(db, us.a.userId, chosen.fields, chosen.images, { places, storage })).rejects.toMatchObject(limited);
    await expect(updateCouple(db, us.a.userId, us.coupleId, { placeId: PORTO }, { places })).rejects.toMatchObject(limited);
    expect(details).not.toHaveBeenCalled();
    const event = await call(createEventRoute, "POST", "/api/events", { headers: us.a.headers, body: EVENT });
    expect(event.status).toBe(429);
    expect(event.json.error).toEqual(limited);

    await updateCouple(db, us.b.userId, us.coupleId, { placeId: PORTO }, { places });
    expect(details).toHaveBeenCalledTimes(1);
    // A change that names no new place looks nothing up, so it is not refused.
    await updateCouple(db, us.a.userId, us.coupleId, { coupleName: "Still us" }, { places });
    expect(details).toHaveBeenCalledTimes(1);
  });

  it("counts everyone's lookups from one address: past its hourly limit, every path refuses a new place from there, never from elsewhere", async () => {
    const db = await getDb();
    const us = await forumCouple();
    await db.update(couples).set({ canCreatePaidEvents: true }).where(eq(couples.id, us.coupleId));
    const address = freshAddress();
    for (let i = 0; i < LIMITS.placeLookupPerAddress.limit; i++) await recordHit(db, LIMITS.placeLookupPerAddress, address);
    const { places, details } = countingPlaces();
    const from = (where: string) => ({ ...us.a.headers, "x-forwarded-for": where });
    const moveTo = (where: string) =>
      call(updateCoupleRoute, "PUT", `/api/v2/couples/${us.coupleId}`, {
        headers: from(where),
        params: { id: us.coupleId },
        body: { placeId: PORTO },
      });

    const moved = await moveTo(address);
    expect(moved.status).toBe(429);
    expect(moved.json.error.code).toBe("RATE_LIMITED");
    expect((await call(createEventRoute, "POST", "/api/events", { headers: from(address), body: EVENT })).status).toBe(429);
    const chosen = await step1(PORTO);
    await expect(
      completeStep1(db, us.b.userId, chosen.fields, chosen.images, { places, storage, clientAddress: address }),
    ).rejects.toMatchObject({ code: "RATE_LIMITED" });
    expect(details).not.toHaveBeenCalled();

    // The same person from another address: looked up.
    expect((await moveTo(freshAddress())).status).toBe(200);
  });
});

describe("a place saved again", () => {
  /** How many couples the directory's nearest walk counts at the couple's place shown at city level. */
  async function shownAtCityLevel(coupleId: string) {
    const db = await getDb();
    const [row] = await db
      .select({ couples: sql<number>`coalesce(sum(${coupleShownPoints.couples}), 0)::int` })
      .from(coupleShownPoints)
      .innerJoin(locations, sql`${coupleShownPoints.point} = shown_point('city', ${locations.latitude}, ${locations.longitude})`)
      .where(and(eq(locations.entityType, "couple"), eq(locations.entityId, coupleId)));
    return row!.couples;
  }

  it("POST /api/locations/normalize sent twice with the place saved asks the provider once; a new level is still applied", async () => {
    const db = await getDb();
    const user = await createUser();
    const us = await forumCouple();
    const { places, details } = countingPlaces();
    const save = (
      entity: { entityType: "user" | "couple"; entityId: string },
      placeId: string,
      privacyLevel?: "city" | "hidden",
      actorId = us.a.userId,
    ) => normalizeLocation(db, { placeId, ...entity, privacyLevel }, { userId: actorId }, { clientAddress: freshAddress() }, places);

    await save({ entityType: "couple", entityId: us.coupleId }, LISBON);
    const shown = await shownAtCityLevel(us.coupleId);
    const again = await save({ entityType: "couple", entityId: us.coupleId }, LISBON, "hidden");
    expect(details).toHaveBeenCalledTimes(1);
    expect(again).toMatchObject({ place_id: LISBON, display_location: "Lisbon, Portugal", privacy_level: "hidden" });
    expect(await shownAtCityLevel(us.coupleId), "a hidden place is no longer a shown point").toBe(shown - 1);

    const person = { entityType: "user" as const, entityId: user.id };
    await save(person, LISBON, undefined, user.id);
    await save(person, LISBON, undefined, user.id);
    expect(details).toHaveBeenCalledTimes(2);

    await save({ entityType: "couple", entityId: us.coupleId }, PORTO);
    expect(details).toHaveBeenCalledTimes(3);
    expect(details).toHaveBeenLastCalledWith(PORTO, undefined);
  });

  it("a couple's place update sent twice (two tabs, both partners) asks the provider once; another place is looked up", async () => {
    const db = await getDb();
    const us = await forumCouple();
    const { places, details } = countingPlaces();
    await updateCouple(db, us.a.userId, us.coupleId, { placeId: LISBON }, { places });
    const again = await updateCouple(db, us.b.userId, us.coupleId, { placeId: LISBON, coupleName: "Still us" }, { places });
    expect(details).toHaveBeenCalledTimes(1);
    expect(again).toMatchObject({ coupleName: "Still us", location: "Lisbon, Portugal", placeId: LISBON });

    await updateCouple(db, us.a.userId, us.coupleId, { placeId: PORTO }, { places });
    expect(details).toHaveBeenCalledTimes(2);
    expect(details).toHaveBeenLastCalledWith(PORTO, undefined);
  });

  it("complete-setup sent twice asks the provider once: the second changes the couple the first made", async () => {
    const db = await getDb();
    const { user } = await afterStep1();
    const { places, details } = countingPlaces();
    const body = profileCompletionSchema.parse(setupBody());
    const first = await completeProfileSetup(db, user.id, body, { places });
    const again = await completeProfileSetup(db, user.id, body, { places });
    expect(again.id).toBe(first.id);
    expect(again).toMatchObject({ location: "Lisbon, Portugal", placeId: LISBON });
    expect(details).toHaveBeenCalledTimes(1);
  });

  it("a new couple at the place partner A saved in step 1 asks the provider nothing more; at another place it does", async () => {
    const db = await getDb();
    const { places, details } = countingPlaces();
    const here = async (placeId: string) => {
      const { user } = await afterStep1();
      const person = { entityType: "user" as const, entityId: user.id, privacyLevel: undefined };
      await normalizeLocation(db, { placeId: LISBON, ...person }, { userId: user.id }, { clientAddress: freshAddress() }, places);
      return createCouple(db, user.id, coupleCreateSchema.parse(coupleBody({ placeId })), { places });
    };
    const couple = await here(LISBON);
    expect(details).toHaveBeenCalledTimes(1);
    expect(couple).toMatchObject({ location: "Lisbon, Portugal", placeId: LISBON });

    await here(PORTO);
    expect(details).toHaveBeenCalledTimes(3);
    expect(details).toHaveBeenLastCalledWith(PORTO, undefined);
  });
});

describe("a pick ending a search session", () => {
  it("POST /api/locations/normalize hands the session token to the provider's details lookup, and a bad one is a 400", async () => {
    const db = await getDb();
    const us = await forumCouple();
    const { places, details } = countingPlaces();
    const token = "3519edfe-0f75-4a30-bfe4-7cbd89340b2c";
    const couple = { entityType: "couple" as const, entityId: us.coupleId };
    await normalizeLocation(
      db,
      { placeId: PORTO, ...couple, privacyLevel: undefined, sessionToken: token },
      { userId: us.a.userId },
      { clientAddress: freshAddress() },
      places,
    );
    expect(details).toHaveBeenCalledWith(PORTO, token);

    const refused = await call(normalizeRoute, "POST", "/api/locations/normalize", {
      headers: us.a.headers,
      body: { place_id: LISBON, entity_type: "couple", entity_id: us.coupleId, session_token: "not a token" },
    });
    expect(refused.status).toBe(400);
    expect(refused.json.error.message).toBe("session_token must be a UUID");
  });
});

describe("a couple's place picked in the settings", () => {
  it("hands the search session to the provider's details lookup", async () => {
    const db = await getDb();
    const us = await forumCouple();
    const { places, details } = countingPlaces();
    const sessionToken = "0b1c4f7e-2a3d-4c5e-9f60-718293a4b5c6";
    await updateCouple(db, us.a.userId, us.coupleId, { placeId: PORTO }, { places, sessionToken });
    expect(details).toHaveBeenCalledWith(PORTO, sessionToken);
  });
});

import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { DELETE as remove, GET as read } from "@/app/api/locations/[entityType]/[entityId]/route";
import { POST as normalize } from "@/app/api/locations/normalize/route";
import { PUT as privacy } from "@/app/api/locations/privacy/route";
import { GET as me } from "@/app/api/v2/auth/me/route";
import { GET as search } from "@/app/api/locations/search/public/route";
import { getDb } from "@/db/client";
import { couples, locations, users } from "@/db/schema";
import { userPlaceColumns } from "@/lib/locations/place";
import { LIMITS, recordHit } from "@/lib/rate-limit";
import { browserSession, call, createUser } from "../support/api";
import { apiSession, bearer } from "../support/flows";
import { nextWhileWaiting } from "../support/lock-race";
import { onPostgres } from "../support/test-database";

const LISBON = "geonames:2267057";
const SF = "geonames:5391959";
const LEVELS = ["full", "city", "region", "country", "hidden"] as const;

async function signedInUser(overrides: Parameters<typeof createUser>[0] = {}) {
  const user = await createUser(overrides);
  const session = await browserSession(user.id);
  return { user, read: { cookie: session.cookie }, write: { cookie: session.cookie, "x-csrf-token": session.csrf } };
}

/** A person whose couple finished onboarding (names, occupation, couple): who may look at other couples. */
async function coupleViewer() {
  const viewer = await signedInUser({ occupation: "Engineer" });
  await createCouple(viewer.user.id, null, { isVisible: false });
  return viewer;
}

async function createCouple(partner1Id: string, partner2Id: string | null = null, shown: { isVisible?: boolean; status?: string } = {}) {
  const db = await getDb();
  const [couple] = await db
    .insert(couples)
    .values({ partner1Id, partner2Id, coupleName: "Ada & Grace", isVisible: true, ...shown })
    .returning({ id: couples.id });
  return couple!;
}

/** Every number anywhere in a JSON answer. */
const numbersIn = (value: unknown): number[] =>
  typeof value === "number" ? [value] : value && typeof value === "object" ? Object.values(value).flatMap(numbersIn) : [];

const searchCall = (qs: string, headers: Record<string, string> = {}) =>
  call(search, "GET", `/api/locations/search/public${qs}`, { headers });
const normalizeCall = (body: unknown, headers: Record<string, string>) =>
  call(normalize, "POST", "/api/locations/normalize", { body, headers });
const privacyCall = (body: unknown, headers: Record<string, string>) => call(privacy, "PUT", "/api/locations/privacy", { body, headers });
const entityCall = (handler: typeof read, method: string, entityType: string, entityId: string, headers: Record<string, string>) =>
  call(handler, method, `/api/locations/${entityType}/${entityId}`, { headers, params: { entityType, entityId } });

async function storedRows(entityId: string) {
  const db = await getDb();
  return db.select().from(locations).where(eq(locations.entityId, entityId));
}

describe("GET /api/locations/search/public", () => {
  it("answers without a session: Lisbon, Portugal first for 'lisb', five suggestions by default", async () => {
    const res = await searchCall("?query=lisb");
    expect(res.status).toBe(200);
    expect(res.json.success).toBe(true);
    expect(res.json.data.predictions).toHaveLength(5);
    expect(res.json.data.predictions[0]).toEqual({
      place_id: LISBON,
      description: "Lisbon, Portugal",
      structured_formatting: { main_text: "Lisbon", secondary_text: "Portugal" },
    });
  });

  it("trims the query, is accent-insensitive and honours limit up to 10", async () => {
    expect(
      (await searchCall("?query=%20%20sao%20pa%20&limit=1")).json.data.predictions.map((p: { description: string }) => p.description),
    ).toEqual(["São Paulo, Brazil"]);
    expect((await searchCall("?query=san&limit=10")).json.data.predictions).toHaveLength(10);
  });

  it("gives empty predictions for a missing, blank or one-character query", async () => {
    for (const qs of ["", "?query=", "?query=%20%20", "?query=l", "?query=%20l%20"]) {
      const res = await searchCall(qs);
      expect(res.status, qs).toBe(200);
      expect(res.json).toEqual({ success: true, data: { predictions: [] } });
    }
  });

  it("refuses a limit out of range or not a number, and an overlong query, with 400 saying why", async () => {
    const cases: [string, string][] = [
      ["?query=lisb&limit=11", "limit must be between 1 and 10"],
      ["?query=lisb&limit=0", "limit must be between 1 and 10"],
      ["?query=lisb&limit=five", "limit must be a number"],
      ["?query=lisb&limit=2.5", "limit must be a whole number"],
      [`?query=${"a".repeat(101)}`, "query must be at most 100 characters"],
    ];
    for (const [qs, message] of cases) {
      const res = await searchCall(qs);
      expect(res.status, qs).toBe(400);
      expect(res.json.error.code).toBe("VALIDATION_ERROR");
      expect(res.json.error.message).toBe(message);
    }
  });

  it("answers 429 to an address past its searches a minute, with Retry-After, while another address still gets suggestions", async () => {
    const looping = { "x-forwarded-for": "198.51.100.61" };
    for (let i = 0; i < LIMITS.placeSearchPerAddress.limit; i++) expect((await searchCall("?query=lisb", looping)).status).toBe(200);
    const refused = await searchCall("?query=lisb", looping);
    expect(refused.status).toBe(429);
    expect(refused.json.error).toEqual({ code: "RATE_LIMITED", message: "Too many location searches. Please try again later." });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    const other = await searchCall("?query=lisb", { "x-forwarded-for": "198.51.100.62" });
    expect(other.status).toBe(200);
    expect(other.json.data.predictions[0].place_id).toBe(LISBON);
  });

  it("ignores the auth header entirely, even a broken one", async () => {
    const res = await searchCall("?query=lisb", { authorization: "Bearer not-a-token" });
    expect(res.status).toBe(200);
    expect(res.json.data.predictions[0].place_id).toBe(LISBON);
  });
});

describe("POST /api/locations/normalize", () => {
  it("saves the caller's own place at city level by default, answering the normalized shape without exact coordinates", async () => {
    const { user, write } = await signedInUser();
    const res = await normalizeCall({ place_id: LISBON, entity_type: "user", entity_id: user.id }, write);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      success: true,
      location: {
        id: expect.any(String),
        place_id: LISBON,
        display_location: "Lisbon, Portugal",
        display_coordinates: { lat: 38.72, lng: -9.13 },
        privacy_level: "city",
        privacy_label: "City Level",
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    });
    const [row] = await storedRows(user.id);
    expect(row).toMatchObject({
      entityType: "user",
      placeId: LISBON,
      latitude: 38.71667,
      longitude: -9.13333,
      city: "Lisbon",
      country: "Portugal",
      countryCode: "PT",
    });
  });

  it("gives the exact coordinates back only at 'full'", async () => {
    const { user, write } = await signedInUser();
    const res = await normalizeCall({ place_id: LISBON, entity_type: "user", entity_id: user.id, privacy_level: "full" }, write);
    expect(res.json.location.display_coordinates).toEqual({ lat: 38.71667, lng: -9.13333 });
  });

  it("replaces the entity's one location on a second call, keeping its id", async () => {
    const { user, write } = await signedInUser();
    const first = await normalizeCall({ place_id: LISBON, entity_type: "user", entity_id: user.id }, write);
    const second = await normalizeCall({ place_id: SF, entity_type: "user", entity_id: user.id, privacy_level: "region" }, write);
    expect(second.json.location).toMatchObject({
      id: first.json.location.id,
      place_id: SF,
      display_location: "San Francisco, California, United States",
      privacy_level: "region",
    });
    expect(await storedRows(user.id)).toHaveLength(1);
  });

  it("keeps the level the owner chose when a new place comes without one (choosing a place in onboarding)", async () => {
    const { user, write } = await signedInUser();
    await normalizeCall({ place_id: LISBON, entity_type: "user", entity_id: user.id, privacy_level: "hidden" }, write);
    const res = await normalizeCall({ place_id: SF, entity_type: "user", entity_id: user.id }, write);
    expect(res.status).toBe(200);
    expect(res.json.location).toMatchObject({ place_id: SF, privacy_level: "hidden", display_coordinates: null });
    expect(await storedRows(user.id)).toMatchObject([{ placeId: SF, city: "San Francisco", privacyLevel: "hidden" }]);
  });

  it("works for an API client with a bearer token, without CSRF", async () => {
    const user = await createUser();
    const session = await apiSession(user.email);
    const res = await normalizeCall({ place_id: LISBON, entity_type: "user", entity_id: user.id }, bearer(session.access_token));
    expect(res.status).toBe(200);
  });

  it("lets either partner set their couple's location", async () => {
    const a = await signedInUser();
    const b = await signedInUser();
    const couple = await createCouple(a.user.id, b.user.id);
    expect((await normalizeCall({ place_id: LISBON, entity_type: "couple", entity_id: couple.id }, a.write)).status).toBe(200);
    const res = await normalizeCall({ place_id: SF, entity_type: "couple", entity_id: couple.id }, b.write);
    expect(res.status).toBe(200);
    expect(res.json.location.place_id).toBe(SF);
  });

  it("keeps the couple's own row in step: its partners' /auth/me names the new place, and none once it is deleted", async () => {
    // A complete profile, so /auth/me answers the whole account.
    const user = await createUser({ occupation: "Engineer" });
    const session = await browserSession(user.id);
    const write = { cookie: session.cookie, "x-csrf-token": session.csrf };
    const couple = await createCouple(user.id);
    const own = async () => (await call(me, "GET", "/api/v2/auth/me", { headers: { cookie: session.cookie } })).json;
    await normalizeCall({ place_id: LISBON, entity_type: "couple", entity_id: couple.id }, write);
    expect((await own()).placeId).toBe(LISBON);
    await normalizeCall({ place_id: SF, entity_type: "couple", entity_id: couple.id }, write);
    expect(await own()).toMatchObject({ placeId: SF, location: expect.stringContaining("San Francisco") });
    expect((await entityCall(remove, "DELETE", "couple", couple.id, write)).status).toBe(200);
    expect(await own()).toMatchObject({ placeId: null, location: null });
  });

  it("keeps a person's own row in step, as onboarding step 1 does: /auth/me names the new place, and none once it is deleted", async () => {
    const user = await createUser({ occupation: "Engineer" });
    const session = await browserSession(user.id);
    const write = { cookie: session.cookie, "x-csrf-token": session.csrf };
    // No couple yet: /auth/me's 409 carries the account, the place its user row names (which a new couple copies).
    const own = async () => (await call(me, "GET", "/api/v2/auth/me", { headers: { cookie: session.cookie } })).json.user;
    await normalizeCall({ place_id: LISBON, entity_type: "user", entity_id: user.id }, write);
    expect((await own()).placeId).toBe(LISBON);
    await normalizeCall({ place_id: SF, entity_type: "user", entity_id: user.id }, write);
    expect(await own()).toMatchObject({ placeId: SF, location: expect.stringContaining("San Francisco") });
    const db = await getDb();
    const [row] = await db.select(userPlaceColumns).from(users).where(eq(users.id, user.id));
    expect(row).toMatchObject({ city: "San Francisco", countryCode: "US", latitude: expect.any(Number), longitude: expect.any(Number) });
    expect((await entityCall(remove, "DELETE", "user", user.id, write)).status).toBe(200);
    expect(await own()).toMatchObject({ placeId: null, location: null });
    expect((await db.select(userPlaceColumns).from(users).where(eq(users.id, user.id)))[0]).toEqual({
      location: null,
      placeId: null,
      latitude: null,
      longitude: null,
      city: null,
      state: null,
      country: null,
      countryCode: null,
    });
  });

  it("refuses 401 without a session and 403 without the CSRF token, saving nothing", async () => {
    const { user, read } = await signedInUser();
    const body = { place_id: LISBON, entity_type: "user", entity_id: user.id };
    const anonymous = await normalizeCall(body, {});
    expect(anonymous.status).toBe(401);
    expect(anonymous.json.error.code).toBe("UNAUTHENTICATED");
    const noCsrf = await normalizeCall(body, read);
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.json.error.code).toBe("CSRF_VALIDATION_FAILED");
    expect(await storedRows(user.id)).toHaveLength(0);
  });

  it("refuses 403 for another user, another couple, or a couple that does not exist", async () => {
    const me = await signedInUser();
    const other = await createUser();
    const theirCouple = await createCouple(other.id);
    for (const [entity_type, entity_id] of [
      ["user", other.id],
      ["couple", theirCouple.id],
      ["couple", "6f1c1f0e-8d7a-4a57-9c55-2d8f1b2c3d4e"],
    ]) {
      const res = await normalizeCall({ place_id: LISBON, entity_type, entity_id }, me.write);
      expect(res.status, entity_type).toBe(403);
      expect(res.json.error.code).toBe("FORBIDDEN");
    }
    expect(await storedRows(other.id)).toHaveLength(0);
    expect(await storedRows(theirCouple.id)).toHaveLength(0);
  });

  it("refuses bad input with 400 naming the field", async () => {
    const { user, write } = await signedInUser();
    const good = { place_id: LISBON, entity_type: "user", entity_id: user.id };
    const cases: [unknown, string, string][] = [
      [{}, "place_id", "place_id is required"],
      [{ ...good, place_id: "  " }, "place_id", "place_id is required"],
      [{ ...good, place_id: 42 }, "place_id", "place_id is required"],
      [{ ...good, entity_type: "group" }, "entity_type", "entity_type must be 'user' or 'couple'"],
      [{ ...good, entity_id: "42" }, "entity_id", "entity_id must be a UUID"],
      [{ ...good, privacy_level: "street" }, "privacy_level", "privacy_level must be one of full, city, region, country, hidden"],
    ];
    for (const [body, field, message] of cases) {
      const res = await normalizeCall(body, write);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.error.code).toBe("VALIDATION_ERROR");
      expect(res.json.error.message).toBe(message);
      expect(res.json.error.fields[field]).toBe(message);
    }
    const notJson = await call(normalize, "POST", "/api/locations/normalize", { rawBody: "place_id=1", headers: write });
    expect(notJson.status).toBe(400);
    expect(notJson.json.error.message).toBe("The request body must be a JSON object.");
    expect(await storedRows(user.id)).toHaveLength(0);
  });

  it("refuses a place id the places service does not know with the spec's message", async () => {
    const { user, write } = await signedInUser();
    for (const placeId of ["geonames:999999999", "ChIJnot-a-real-place"]) {
      const res = await normalizeCall({ place_id: placeId, entity_type: "user", entity_id: user.id }, write);
      expect(res.status).toBe(400);
      expect(res.json.error).toEqual({
        code: "INVALID_LOCATION_DATA",
        message: "The location data is invalid. Please select your location again.",
        fields: { place_id: "Unknown place" },
      });
    }
    expect(await storedRows(user.id)).toHaveLength(0);
  });
});

describe("POST /api/locations/normalize, a billed lookup each", () => {
  it("answers 429 to a person past their lookups an hour, from any address, and changes nothing; another person still saves", async () => {
    const { user, write } = await signedInUser();
    const body = { place_id: LISBON, entity_type: "user", entity_id: user.id };
    // Each save a new place (the saved one is not looked up again), Lisbon last.
    const { limit } = LIMITS.placeLookupPerUser;
    for (let i = 0; i < limit; i++)
      expect((await normalizeCall({ ...body, place_id: (limit - i) % 2 ? LISBON : SF }, write)).status).toBe(200);
    const refused = await normalizeCall({ ...body, place_id: SF }, write);
    expect(refused.status).toBe(429);
    expect(refused.json.error).toEqual({ code: "RATE_LIMITED", message: "Too many location changes. Please try again later." });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await storedRows(user.id)).map((row) => row.placeId)).toEqual([LISBON]);
    // The place saved costs no lookup, so it is not refused.
    expect((await normalizeCall({ ...body, privacy_level: "country" }, write)).status).toBe(200);
    expect((await storedRows(user.id)).map((row) => [row.placeId, row.privacyLevel])).toEqual([[LISBON, "country"]]);
    const other = await signedInUser();
    expect((await normalizeCall({ ...body, entity_id: other.user.id }, other.write)).status).toBe(200);
  });

  it("counts every save against the person's location changes, the place it has saved again too (no lookup): past them 429, nothing changed", async () => {
    const { user, write } = await signedInUser();
    const body = { place_id: LISBON, entity_type: "user", entity_id: user.id };
    expect((await normalizeCall({ ...body, privacy_level: "full" }, write)).status).toBe(200);
    const db = await getDb();
    for (let i = 1; i < LIMITS.locationSettingsPerUser.limit; i++) await recordHit(db, LIMITS.locationSettingsPerUser, user.id);
    const refused = await normalizeCall({ ...body, privacy_level: "country" }, write);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await storedRows(user.id)).map((row) => row.privacyLevel)).toEqual(["full"]);
  });

  it("answers 429 to an address past its lookups an hour, whoever asks from it, while another address still saves", async () => {
    const address = "198.51.100.63";
    const db = await getDb();
    for (let i = 0; i < LIMITS.placeLookupPerAddress.limit; i++) await recordHit(db, LIMITS.placeLookupPerAddress, address);
    const { user, write } = await signedInUser();
    const body = { place_id: LISBON, entity_type: "user", entity_id: user.id };
    expect((await normalizeCall(body, { ...write, "x-forwarded-for": address })).status).toBe(429);
    expect(await storedRows(user.id)).toEqual([]);
    expect((await normalizeCall(body, { ...write, "x-forwarded-for": "198.51.100.64" })).status).toBe(200);
  });
});

describe("PUT /api/locations/privacy", () => {
  it("changes the level, and the answer follows it", async () => {
    const { user, write } = await signedInUser();
    await normalizeCall({ place_id: LISBON, entity_type: "user", entity_id: user.id, privacy_level: "full" }, write);
    const res = await privacyCall({ entity_type: "user", entity_id: user.id, privacy_level: "country" }, write);
    expect(res.status).toBe(200);
    expect(res.json.location).toMatchObject({ privacy_level: "country", privacy_label: "Country Level", display_coordinates: null });
    expect((await storedRows(user.id))[0]!.privacyLevel).toBe("country");
  });

  it("answers 404 when there is no location, 403 for someone else's, 400 for a bad level, 401 without a session", async () => {
    const me = await signedInUser();
    const other = await signedInUser();
    await normalizeCall({ place_id: LISBON, entity_type: "user", entity_id: other.user.id }, other.write);
    const missing = await privacyCall({ entity_type: "user", entity_id: me.user.id, privacy_level: "city" }, me.write);
    expect(missing.status).toBe(404);
    expect(missing.json.error).toEqual({ code: "NOT_FOUND", message: "No location found" });
    const theirs = await privacyCall({ entity_type: "user", entity_id: other.user.id, privacy_level: "full" }, me.write);
    expect(theirs.status).toBe(403);
    expect((await storedRows(other.user.id))[0]!.privacyLevel).toBe("city");
    const bad = await privacyCall({ entity_type: "user", entity_id: me.user.id, privacy_level: "" }, me.write);
    expect(bad.status).toBe(400);
    expect(bad.json.error.fields.privacy_level).toMatch(/^privacy_level must be one of/);
    expect((await privacyCall({ entity_type: "user", entity_id: me.user.id, privacy_level: "city" }, {})).status).toBe(401);
  });
});

describe.skipIf(!onPostgres())("PUT /api/locations/privacy at the instant a partner saves the couple's place", () => {
  it("takes the couple before its place, as the save does (a couple's update, normalize, the last partner's deletion): the two never deadlock", async () => {
    const a = await signedInUser();
    const b = await signedInUser();
    const couple = await createCouple(a.user.id, b.user.id);
    await normalizeCall({ place_id: LISBON, entity_type: "couple", entity_id: couple.id }, a.write);
    const { waited, answer } = await nextWhileWaiting(
      // A save of the couple's place: the couple's row first, then its place's.
      (tx) => tx`select id from couples where id = ${couple.id} for update`,
      () => privacyCall({ entity_type: "couple", entity_id: couple.id, privacy_level: "region" }, b.write),
      (tx) => tx`select id from locations where entity_type = 'couple' and entity_id = ${couple.id} for update nowait`,
    );
    expect(waited).toBe(true);
    expect(answer.status).toBe(200);
    expect(answer.json.location.privacy_level).toBe("region");
  });
});

describe("GET /api/locations/{entityType}/{entityId}", () => {
  it("shows another discoverable couple's location only as far as its level allows", async () => {
    const owner = await signedInUser();
    const viewer = await coupleViewer();
    const couple = await createCouple(owner.user.id);
    await normalizeCall({ place_id: SF, entity_type: "couple", entity_id: couple.id }, owner.write);
    const expected = {
      full: {
        place_id: SF,
        display_location: "San Francisco, California, United States",
        display_coordinates: { lat: 37.77493, lng: -122.41942 },
      },
      city: {
        place_id: null,
        display_location: "San Francisco, California, United States",
        display_coordinates: { lat: 37.77, lng: -122.42 },
      },
      region: { place_id: null, display_location: "California, United States", display_coordinates: { lat: 38, lng: -122 } },
      country: { place_id: null, display_location: "United States", display_coordinates: null },
    };
    for (const [level, shape] of Object.entries(expected)) {
      await privacyCall({ entity_type: "couple", entity_id: couple.id, privacy_level: level }, owner.write);
      const res = await entityCall(read, "GET", "couple", couple.id, viewer.read);
      expect(res.status, level).toBe(200);
      expect(res.json.location, level).toMatchObject({ ...shape, privacy_level: level });
    }
  });

  it("reads a hidden couple location as missing for others, and as their own for its partners", async () => {
    const owner = await signedInUser();
    const viewer = await coupleViewer();
    const couple = await createCouple(owner.user.id);
    await normalizeCall({ place_id: LISBON, entity_type: "couple", entity_id: couple.id, privacy_level: "hidden" }, owner.write);
    const other = await entityCall(read, "GET", "couple", couple.id, viewer.read);
    expect(other.status).toBe(404);
    expect(other.json.error).toEqual({ code: "NOT_FOUND", message: "No location found" });
    const own = await entityCall(read, "GET", "couple", couple.id, owner.read);
    expect(own.status).toBe(200);
    expect(own.json.location).toMatchObject({
      place_id: LISBON,
      display_location: "Lisbon, Portugal",
      display_coordinates: null,
      privacy_level: "hidden",
    });
  });

  it("shows a couple that is not discoverable (invisible or not active) to its partners only, 404 to anyone else", async () => {
    const viewer = await coupleViewer();
    for (const shown of [{ isVisible: false }, { status: "suspended" }]) {
      const owner = await signedInUser();
      const couple = await createCouple(owner.user.id, null, shown);
      await normalizeCall({ place_id: LISBON, entity_type: "couple", entity_id: couple.id, privacy_level: "full" }, owner.write);
      const other = await entityCall(read, "GET", "couple", couple.id, viewer.read);
      expect(other.status, JSON.stringify(shown)).toBe(404);
      expect(JSON.stringify(other.json)).not.toContain("Lisbon");
      expect((await entityCall(read, "GET", "couple", couple.id, owner.read)).status).toBe(200);
    }
  });

  it("shows a person's place to themself and their partner only: anyone else gets 404, whatever the level", async () => {
    const a = await signedInUser();
    const b = await signedInUser();
    const stranger = await signedInUser();
    await createCouple(a.user.id, b.user.id);
    await normalizeCall({ place_id: LISBON, entity_type: "user", entity_id: a.user.id, privacy_level: "full" }, a.write);
    expect((await entityCall(read, "GET", "user", a.user.id, a.read)).json.location).toMatchObject({
      place_id: LISBON,
      display_location: "Lisbon, Portugal",
    });
    expect((await entityCall(read, "GET", "user", a.user.id, b.read)).json.location).toMatchObject({
      place_id: LISBON,
      display_location: "Lisbon, Portugal",
    });
    const other = await entityCall(read, "GET", "user", a.user.id, stranger.read);
    expect(other.status).toBe(404);
    expect(other.json.error).toEqual({ code: "NOT_FOUND", message: "No location found" });
  });

  it("shows other couples' places only to a couple that finished onboarding, as nearby and a couple's profile do: any other account is told 409 PROFILE_INCOMPLETE, whichever couple it names", async () => {
    const owner = await signedInUser();
    const couple = await createCouple(owner.user.id);
    await normalizeCall({ place_id: LISBON, entity_type: "couple", entity_id: couple.id, privacy_level: "full" }, owner.write);
    const hidden = await createCouple((await createUser()).id, null, { isVisible: false });
    const withoutCouple = await signedInUser({ occupation: "Engineer" });
    const midOnboarding = await signedInUser();
    await createCouple(midOnboarding.user.id);
    for (const viewer of [withoutCouple, midOnboarding])
      for (const id of [couple.id, hidden.id, randomUUID()]) {
        const res = await entityCall(read, "GET", "couple", id, viewer.read);
        expect(res.status, id).toBe(409);
        expect(res.json.error.code).toBe("PROFILE_INCOMPLETE");
        expect(JSON.stringify(res.json)).not.toContain("Lisbon");
      }
    // Their own couple's place stays theirs to read while they finish onboarding.
    expect((await entityCall(read, "GET", "couple", couple.id, owner.read)).json.location).toMatchObject({ place_id: LISBON });
  });

  it("shows a couple's location to its partner as its owner", async () => {
    const a = await signedInUser();
    const b = await signedInUser();
    const couple = await createCouple(a.user.id, b.user.id);
    await normalizeCall({ place_id: LISBON, entity_type: "couple", entity_id: couple.id, privacy_level: "country" }, a.write);
    const res = await entityCall(read, "GET", "couple", couple.id, b.read);
    expect(res.json.location).toMatchObject({ place_id: LISBON, display_location: "Lisbon, Portugal", display_coordinates: null });
  });

  it("answers 404 when there is none, 400 for a bad type or id, 401 without a session", async () => {
    const me = await signedInUser();
    expect((await entityCall(read, "GET", "user", me.user.id, me.read)).status).toBe(404);
    const badType = await entityCall(read, "GET", "users", me.user.id, me.read);
    expect(badType.status).toBe(400);
    expect(badType.json.error.message).toBe("entity_type must be 'user' or 'couple'");
    const badId = await entityCall(read, "GET", "user", "me", me.read);
    expect(badId.status).toBe(400);
    expect(badId.json.error.message).toBe("entity_id must be a UUID");
    expect((await entityCall(read, "GET", "user", me.user.id, {})).status).toBe(401);
  });
});

describe("DELETE /api/locations/{entityType}/{entityId}", () => {
  it("deletes the caller's own location; a second delete is 404", async () => {
    const me = await signedInUser();
    await normalizeCall({ place_id: LISBON, entity_type: "user", entity_id: me.user.id }, me.write);
    const res = await entityCall(remove, "DELETE", "user", me.user.id, me.write);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ success: true });
    expect(await storedRows(me.user.id)).toHaveLength(0);
    expect((await entityCall(read, "GET", "user", me.user.id, me.read)).status).toBe(404);
    expect((await entityCall(remove, "DELETE", "user", me.user.id, me.write)).status).toBe(404);
  });

  it("refuses someone else's location (403), a call without CSRF (403) or session (401), and keeps it", async () => {
    const owner = await signedInUser();
    const me = await signedInUser();
    const couple = await createCouple(owner.user.id);
    await normalizeCall({ place_id: LISBON, entity_type: "user", entity_id: owner.user.id }, owner.write);
    await normalizeCall({ place_id: LISBON, entity_type: "couple", entity_id: couple.id }, owner.write);
    expect((await entityCall(remove, "DELETE", "user", owner.user.id, me.write)).json.error.code).toBe("FORBIDDEN");
    expect((await entityCall(remove, "DELETE", "couple", couple.id, me.write)).status).toBe(403);
    expect((await entityCall(remove, "DELETE", "user", owner.user.id, owner.read)).json.error.code).toBe("CSRF_VALIDATION_FAILED");
    expect((await entityCall(remove, "DELETE", "user", owner.user.id, {})).status).toBe(401);
    expect(await storedRows(owner.user.id)).toHaveLength(1);
    expect(await storedRows(couple.id)).toHaveLength(1);
  });
});

describe("exact coordinates never leave the server below 'full'", () => {
  it("no answer of normalize, privacy or read carries a number finer than 0.01° at city level or coarser", async () => {
    const owner = await signedInUser();
    const partner = await signedInUser();
    await createCouple(owner.user.id, partner.user.id);
    for (const level of LEVELS.filter((l) => l !== "full")) {
      const answers = [
        await normalizeCall({ place_id: LISBON, entity_type: "user", entity_id: owner.user.id, privacy_level: level }, owner.write),
        await privacyCall({ entity_type: "user", entity_id: owner.user.id, privacy_level: level }, owner.write),
        await entityCall(read, "GET", "user", owner.user.id, owner.read),
        await entityCall(read, "GET", "user", owner.user.id, partner.read),
      ];
      for (const answer of answers) {
        const text = JSON.stringify(answer.json);
        expect(text, level).not.toContain("38.71667");
        expect(text, level).not.toContain("9.13333");
        for (const n of numbersIn(answer.json)) expect(Math.abs(n * 100 - Math.round(n * 100)), `${level}: ${n}`).toBeLessThan(1e-6);
      }
    }
  });
});

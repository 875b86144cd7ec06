import { beforeAll, describe, expect, it } from "vitest";
import { GET as nearbyRoute } from "@/app/api/locations/nearby/route";
import { getDb } from "@/db/client";
import { couples } from "@/db/schema";
import { normalizeLocation } from "@/lib/locations/service";
import type { PrivacyLevel } from "@/lib/locations/privacy";
import { LIMITS } from "@/lib/rate-limit";
import { browserSession, call, createUser, freshAddress } from "../support/api";

const PLACES = {
  lisbon: "geonames:2267057", // 38.71667, -9.13333
  almada: "geonames:2271961", // across the river, ~5 km
  sintra: "geonames:2262912", // ~23 km
  evora: "geonames:2268406", // ~110 km
  suva: "geonames:2198148", // Fiji, 178.44 E: across the antimeridian from -179.x
};

type Entity = { entityType: "user" | "couple"; entityId: string };

/** Each entity in its own database row, saved through the domain function as its owner would. */
async function place(owner: string, entity: Entity, placeId: string, privacyLevel: PrivacyLevel) {
  await normalizeLocation(await getDb(), { ...entity, placeId, privacyLevel }, { userId: owner }, { clientAddress: freshAddress() });
}

async function userAt(placeId: string, level: PrivacyLevel) {
  const user = await createUser();
  await place(user.id, { entityType: "user", entityId: user.id }, placeId, level);
  return user.id;
}

async function coupleAt(placeId: string, level: PrivacyLevel, isVisible = true, partner1Id?: string, status = "active") {
  const db = await getDb();
  const partner = partner1Id ?? (await createUser()).id;
  const [couple] = await db
    .insert(couples)
    .values({ partner1Id: partner, coupleName: "Ada & Grace", isVisible, status })
    .returning({ id: couples.id });
  await place(partner, { entityType: "couple", entityId: couple!.id }, placeId, level);
  return couple!.id;
}

const numbersIn = (value: unknown): number[] =>
  typeof value === "number" ? [value] : value && typeof value === "object" ? Object.values(value).flatMap(numbersIn) : [];

type Entry = {
  entity_type: string;
  entity_id: string;
  distance_km: number;
  location: { display_location: string; display_coordinates: { lat: number; lng: number }; place_id: string | null; privacy_level: string };
};

let me: { id: string; cookie: string };
const ids: Record<string, string> = {};
const nearbyCall = (qs: string, headers: Record<string, string> = { cookie: me.cookie }) =>
  call(nearbyRoute, "GET", `/api/locations/nearby${qs}`, { headers });
const entries = async (qs: string) => (await nearbyCall(qs)).json.data.locations as Entry[];

/** A person whose couple finished onboarding (names, occupation, couple): who may look for couples nearby. */
async function completeCaller() {
  const user = await createUser({ occupation: "Engineer" });
  await (await getDb()).insert(couples).values({ partner1Id: user.id, coupleName: "Callers" });
  return { id: user.id, cookie: (await browserSession(user.id)).cookie };
}

beforeAll(async () => {
  const user = await createUser({ occupation: "Engineer" });
  me = { id: user.id, cookie: (await browserSession(user.id)).cookie };
  await place(me.id, { entityType: "user", entityId: me.id }, PLACES.lisbon, "full");
  ids.myCouple = await coupleAt(PLACES.lisbon, "full", true, me.id);
  ids.full = await coupleAt(PLACES.almada, "full");
  ids.city = await coupleAt(PLACES.lisbon, "city");
  ids.region = await coupleAt(PLACES.sintra, "region");
  ids.country = await coupleAt(PLACES.lisbon, "country");
  ids.hidden = await coupleAt(PLACES.lisbon, "hidden");
  ids.invisibleCouple = await coupleAt(PLACES.lisbon, "city", false);
  ids.inactiveCouple = await coupleAt(PLACES.lisbon, "city", true, undefined, "suspended");
  ids.person = await userAt(PLACES.almada, "full");
  ids.evora = await coupleAt(PLACES.evora, "city");
  ids.suva = await coupleAt(PLACES.suva, "full");
});

describe("GET /api/locations/nearby", () => {
  it("lists full, city and region places within 50 km by default, nearest first, with their shown coordinates", async () => {
    const res = await nearbyCall("?lat=38.7223&lng=-9.1393");
    expect(res.status).toBe(200);
    expect(res.json.success).toBe(true);
    expect(res.json.data).toMatchObject({ radius: 50, limit: 20 });
    const found = res.json.data.locations as Entry[];
    expect(found.map((e) => e.entity_id).sort()).toEqual([ids.full, ids.city, ids.region].sort());
    expect(found.every((e) => e.entity_type === "couple")).toBe(true);
    const distances = found.map((e) => e.distance_km);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    const city = found.find((e) => e.entity_id === ids.city)!;
    expect(city.location).toMatchObject({
      display_location: "Lisbon, Portugal",
      display_coordinates: { lat: 38.72, lng: -9.13 },
      place_id: null,
    });
    const region = found.find((e) => e.entity_id === ids.region)!;
    expect(region.location).toMatchObject({ display_location: "Portugal", display_coordinates: { lat: 39, lng: -9 } });
    expect(found.find((e) => e.entity_id === ids.full)!.location.display_coordinates).toEqual({ lat: 38.67902, lng: -9.1569 });
  });

  it("lists discoverable couples only: never a person, a hidden or country-level place, an invisible or inactive couple, or the caller's own couple", async () => {
    const found = (await entries("?lat=38.7223&lng=-9.1393&radius=200&limit=50")).map((e) => e.entity_id);
    for (const key of ["hidden", "country", "invisibleCouple", "inactiveCouple", "person", "myCouple"])
      expect(found, key).not.toContain(ids[key]);
    expect(found).not.toContain(me.id);
    expect(found).toContain(ids.evora);
  });

  it("measures from the shown point, not the stored one: a city-level place sits on its 0.01° grid", async () => {
    // Exactly on the city-level point of Lisbon (38.72, -9.13): distance 0, although the stored point is ~370 m away.
    const [nearest] = await entries("?lat=38.72&lng=-9.13&radius=1&limit=1");
    expect(nearest).toMatchObject({ entity_id: ids.city, distance_km: 0 });
  });

  it("honours radius and limit", async () => {
    expect((await entries("?lat=38.7223&lng=-9.1393&radius=150")).map((e) => e.entity_id)).toContain(ids.evora);
    expect((await entries("?lat=38.7223&lng=-9.1393&radius=3")).map((e) => e.entity_id)).toEqual([ids.city]);
    expect(await entries("?lat=38.7223&lng=-9.1393&limit=2")).toHaveLength(2);
  });

  it("finds places across the antimeridian", async () => {
    const found = await entries("?lat=-18.14&lng=-179.9&radius=200");
    expect(found.map((e) => e.entity_id)).toEqual([ids.suva]);
    expect(found[0]!.distance_km).toBeGreaterThan(150);
  });

  it("carries no coordinate finer than 0.01° for any place below 'full'", async () => {
    for (const entry of await entries("?lat=38.7223&lng=-9.1393&radius=200&limit=50")) {
      if (entry.location.privacy_level === "full") continue;
      for (const n of numbersIn(entry))
        expect(Math.abs(n * 100 - Math.round(n * 100)), `${entry.location.privacy_level}: ${n}`).toBeLessThan(1e-6);
      expect(entry.location.place_id).toBeNull();
    }
  });

  it("refuses bad input with 400 saying why, and a call without a session with 401", async () => {
    const cases: [string, string][] = [
      ["?lng=-9.1", "lat is required"],
      ["?lat=&lng=-9.1", "lat is required"],
      ["?lat=abc&lng=-9.1", "lat must be a number"],
      ["?lat=91&lng=-9.1", "lat must be between -90 and 90"],
      ["?lat=38&lng=181", "lng must be between -180 and 180"],
      ["?lat=38&lng=-9&radius=0", "radius must be greater than 0"],
      ["?lat=38&lng=-9&radius=200.1", "radius must be at most 200 km"],
      ["?lat=38&lng=-9&limit=51", "limit must be between 1 and 50"],
      ["?lat=38&lng=-9&limit=0", "limit must be between 1 and 50"],
    ];
    for (const [qs, message] of cases) {
      const res = await nearbyCall(qs);
      expect(res.status, qs).toBe(400);
      expect(res.json.error.message, qs).toBe(message);
    }
    const anonymous = await nearbyCall("?lat=38&lng=-9", {});
    expect(anonymous.status).toBe(401);
  });

  it("is for couples that finished onboarding, as the directory is: an account without one is told 409 PROFILE_INCOMPLETE", async () => {
    const alone = await createUser({ occupation: "Engineer" });
    const refused = await nearbyCall("?lat=38.7223&lng=-9.1393", { cookie: (await browserSession(alone.id)).cookie });
    expect(refused.status).toBe(409);
    expect(refused.json.error.code).toBe("PROFILE_INCOMPLETE");
    expect(refused.json.data).toBeUndefined();
  });
});

describe("GET /api/locations/nearby, rate limit", () => {
  it("answers 429 with Retry-After once a caller has used up their calls, counting per caller", async () => {
    const { cookie } = await completeCaller();
    for (let i = 0; i < LIMITS.nearbyPerUser.limit; i++) expect((await nearbyCall("?lat=38&lng=-9", { cookie })).status).toBe(200);
    const refused = await nearbyCall("?lat=38&lng=-9", { cookie });
    expect(refused.status).toBe(429);
    expect(refused.json.error.code).toBe("RATE_LIMITED");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await nearbyCall("?lat=38&lng=-9")).status).toBe(200);
  });
});

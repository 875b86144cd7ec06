import { and, eq, or, sql } from "drizzle-orm";
import type { ImageStorage } from "@/lib/storage";
import { describe, expect, it, vi } from "vitest";

// Before any module reads the configuration: local image storage (a folder of this file's own), offline places.
vi.hoisted(() => {
  process.env.STORAGE_DIR = `${process.env.TMPDIR ?? "/tmp"}/couples-${process.pid}-${Date.now()}/uploads`;
  delete process.env.S3_BUCKET;
  delete process.env.GOOGLE_MAPS_API_KEY;
});

const { POST: completeSetup } = await import("@/app/api/v2/profile/complete-setup/route");
const { POST: createCoupleRoute } = await import("@/app/api/v2/couples/route");
const { PUT: updateCoupleById } = await import("@/app/api/v2/couples/[id]/route");
const { PUT: updateCoupleFallback } = await import("@/app/api/couples/update/route");
const { GET: fullProfile } = await import("@/app/api/couples/[id]/full-profile/route");
const { getDb } = await import("@/db/client");
const { couples, locations, users } = await import("@/db/schema");
const { createCouple, updateCouple } = await import("@/lib/couples/service");
const { coupleCreateSchema } = await import("@/lib/couples/schemas");
const { gazetteerProvider } = await import("@/lib/places/gazetteer");
const { completeProfileSetup } = await import("@/lib/profile/complete-setup");
const { INTEREST_VALUES } = await import("@/lib/interests/catalogue");
const { failingDb } = await import("../support/failing-db");
const { browserSession, call, createUser } = await import("../support/api");
const { apiSession, bearer } = await import("../support/flows");

const LISBON = "geonames:2267057";
const PORTO = "geonames:2735943";
const NOT_STORED = "Please upload the photo here: links to images elsewhere are not accepted";

let imageCounter = 0;
/** A URL in the shape this app's local storage hands out (the checks are on the URL, not the file). */
const ownImage = (folder = "couple-photo") => `/api/images/${folder}/${(++imageCounter).toString(16).padStart(32, "0")}.jpg`;

type Headers = Record<string, string>;

async function signedIn(overrides: Parameters<typeof createUser>[0] = {}) {
  const user = await createUser(overrides);
  const session = await browserSession(user.id);
  return { user, headers: { cookie: session.cookie, "x-csrf-token": session.csrf } as Headers };
}

/** A user who finished step 1: their place and interests are saved. */
const afterStep1 = () =>
  signedIn({
    occupation: "Engineer",
    interests: INTEREST_VALUES.slice(0, 6),
    location: "Porto, Portugal",
    placeId: PORTO,
    latitude: 41.14961,
    longitude: -8.61099,
    city: "Porto",
    country: "Portugal",
    countryCode: "PT",
  });

const coupleBody = (overrides: Record<string, unknown> = {}) => ({
  coupleName: "Ada & Grace",
  coupleTypes: ["global_adventurers", "culture_curators"],
  placeId: LISBON,
  bio: "We travel, we cook, we argue about maps.",
  interests: INTEREST_VALUES.slice(2, 8),
  ...overrides,
});

const setupBody = (overrides: { userData?: Record<string, unknown>; coupleData?: Record<string, unknown> } = {}) => ({
  userData: { firstName: "Ada", lastName: "Lovelace", dateOfBirth: "1990-05-17", occupation: "Engineer", bio: "Counting engines.", ...overrides.userData },
  coupleData: { ...coupleBody(), location: "Somewhere made up", latitude: 0, longitude: 0, city: "Fake City", country: "Nowhere", countryCode: "XX", ...overrides.coupleData },
});

const postSetup = (body: unknown, headers: Headers) => call(completeSetup, "POST", "/api/v2/profile/complete-setup", { body, headers });
const postCouple = (body: unknown, headers: Headers) => call(createCoupleRoute, "POST", "/api/v2/couples", { body, headers });
const putCouple = (id: string, body: unknown, headers: Headers) =>
  call(updateCoupleById, "PUT", `/api/v2/couples/${encodeURIComponent(id)}`, { body, headers, params: { id } });
const putFallback = (body: unknown, headers: Headers) => call(updateCoupleFallback, "PUT", "/api/couples/update", { body, headers });
const getProfile = (id: string, headers: Headers) =>
  call(fullProfile, "GET", `/api/couples/${encodeURIComponent(id)}/full-profile`, { headers: { cookie: headers.cookie! }, params: { id } });

/** A signed-in partner A with a complete couple, made through the API. */
async function withCouple(overrides: Record<string, unknown> = {}) {
  const signed = await afterStep1();
  const res = await postCouple(coupleBody(overrides), signed.headers);
  expect(res.status).toBe(201);
  return { ...signed, coupleId: res.json.data.id as string };
}

async function coupleRow(id: string) {
  const db = await getDb();
  const [row] = await db.select().from(couples).where(eq(couples.id, id));
  return row;
}

async function coupleLocation(id: string) {
  const db = await getDb();
  const [row] = await db.select().from(locations).where(and(eq(locations.entityType, "couple"), eq(locations.entityId, id)));
  return row;
}

async function couplesOf(userId: string) {
  const db = await getDb();
  return db.select({ id: couples.id }).from(couples).where(eq(couples.partner1Id, userId));
}

/** Gives the couple photos as the step 2 upload would: a JSON call may only name images its own rows show. */
async function showPhotos(coupleId: string, images: { profileImageUrl?: string; photos?: string[] }) {
  const db = await getDb();
  await db.update(couples).set(images).where(eq(couples.id, coupleId));
}

/** Adds a signed-in partner B to the couple. */
async function joinAsPartnerB(coupleId: string) {
  const b = await signedIn({ firstName: "Bea", lastName: "Byron", dateOfBirth: "1991-02-03", occupation: "Poet" });
  const db = await getDb();
  await db.update(couples).set({ partner2Id: b.user.id }).where(eq(couples.id, coupleId));
  return b;
}

/** An image storage that only records what is deleted. */
function recordingStorage() {
  const deleted: string[] = [];
  const storage: ImageStorage = { put: async () => ({ url: "" }), delete: async (key) => void deleted.push(key) };
  return { storage, deleted };
}

const keyOf = (url: string) => url.replace(/^\/api\/images\//, "");

/** The offline places provider, counting the lookups made (each is billed with Google). */
function countingPlaces() {
  const details = vi.fn(gazetteerProvider.details);
  return { places: { ...gazetteerProvider, details }, details };
}

describe("POST /api/v2/profile/complete-setup", () => {
  it("updates the user, creates the complete couple at the server-resolved place and answers it with the percentage", async () => {
    const avatar = ownImage("avatar");
    const { user, headers } = await signedIn({ occupation: null, avatarUrl: avatar });
    // A JSON client may show its own photo again, here as the couple's main photo.
    const body = setupBody({ userData: { firstName: "  Grace ", occupation: "Admiral", avatarUrl: avatar }, coupleData: { photos: [], profileImageUrl: avatar } });
    const res = await postSetup(body, headers);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      success: true,
      data: {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        partner1Id: user.id,
        partner2Id: null,
        coupleName: "Ada & Grace",
        coupleTypes: ["global_adventurers", "culture_curators"],
        interests: INTEREST_VALUES.slice(2, 8),
        photos: [],
        profileImageUrl: avatar,
        placeId: LISBON,
        location: "Lisbon, Portugal",
        status: "active",
        partnerAVerified: true,
        partnerBVerified: false,
        isVerified: false,
        isVisible: true,
        profileCompletionPercentage: 100,
      },
    });

    const db = await getDb();
    const [me] = await db.select().from(users).where(eq(users.id, user.id));
    expect(me).toMatchObject({ firstName: "Grace", occupation: "Admiral", bio: "Counting engines.", avatarUrl: avatar });
    const couple = await coupleRow(res.json.data.id);
    expect(couple!.partnerACompletedAt!.getTime()).toBeGreaterThan(Date.now() - 60_000);
    // The client's coordinates and names were ignored: the place is the provider's.
    const place = await coupleLocation(couple!.id);
    expect(place).toMatchObject({ placeId: LISBON, displayLocation: "Lisbon, Portugal", city: "Lisbon", country: "Portugal", countryCode: "PT", privacyLevel: "city" });
    expect(place!.latitude).toBeCloseTo(38.7, 0);
  });

  it("changes the caller's existing couple instead of making a second one, keeping its privacy level", async () => {
    const { user, headers, coupleId } = await withCouple();
    const db = await getDb();
    await db.update(locations).set({ privacyLevel: "country" }).where(eq(locations.entityId, coupleId));
    const res = await postSetup(setupBody({ coupleData: { coupleName: "Renamed", placeId: PORTO, interests: undefined } }), headers);
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({ id: coupleId, coupleName: "Renamed", placeId: PORTO, interests: INTEREST_VALUES.slice(2, 8) });
    expect(await couplesOf(user.id)).toHaveLength(1);
    expect(await coupleLocation(coupleId)).toMatchObject({ placeId: PORTO, city: "Porto", privacyLevel: "country" });
  });

  it("verifies the couple when partner A completes after partner B", async () => {
    const { coupleId } = await withCouple();
    const db = await getDb();
    await db.update(couples).set({ partnerAVerified: false, partnerBVerified: true, isVerified: false }).where(eq(couples.id, coupleId));
    const a = await coupleRow(coupleId);
    const session = await browserSession(a!.partner1Id);
    const res = await postSetup(setupBody(), { cookie: session.cookie, "x-csrf-token": session.csrf });
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({ partnerAVerified: true, partnerBVerified: true, isVerified: true });
  });

  it("marks partner B's part, not partner A's, when partner B completes the setup", async () => {
    const { coupleId } = await withCouple();
    const b = await joinAsPartnerB(coupleId);
    const db = await getDb();
    await db.update(couples).set({ partnerAVerified: false, partnerACompletedAt: null }).where(eq(couples.id, coupleId));
    const res = await postSetup(setupBody({ userData: { firstName: "Bea" } }), b.headers);
    expect(res.status).toBe(200);
    expect(await coupleRow(coupleId)).toMatchObject({ partner2Id: b.user.id, partnerAVerified: false, partnerACompletedAt: null, partnerBVerified: true, isVerified: false });
  });

  it.each([
    ["wrong types", { userData: { firstName: 42 }, coupleData: { coupleTypes: "global_adventurers" } }, { "userData.firstName": "First name is required", "coupleData.coupleTypes": "Please select at least one adventure style" }],
    ["oversized fields", { userData: { occupation: "x".repeat(101) }, coupleData: { coupleName: "x".repeat(101), bio: "x".repeat(1001) } }, {
      "userData.occupation": "Occupation must be no more than 100 characters",
      "coupleData.coupleName": "Couple name must be no more than 100 characters",
      "coupleData.bio": "Bio is too long (maximum 1000 characters)",
    }],
    ["an unknown interest and too many photos", { coupleData: { interests: [...INTEREST_VALUES.slice(0, 5), "knitting"], photos: Array.from({ length: 6 }, () => ownImage()) } }, {
      "coupleData.interests.5": "Please select interests from the list",
      "coupleData.photos": "You can only upload up to 5 photos. You currently have 6.",
    }],
  ])("refuses %s with 400 and the field messages, writing nothing", async (_case, overrides, fields) => {
    const { user, headers } = await signedIn();
    const res = await postSetup(setupBody(overrides), headers);
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("VALIDATION_ERROR");
    expect(res.json.error.fields).toMatchObject(fields);
    expect(await couplesOf(user.id)).toHaveLength(0);
  });

  it("refuses a body without coupleData or userData, or one that is not JSON, with 400 naming the fields", async () => {
    const { headers } = await signedIn();
    const missing = await postSetup({ userData: setupBody().userData }, headers);
    expect(missing.status).toBe(400);
    expect(missing.json.error).toMatchObject({ message: "Please enter your couple name", fields: { "coupleData.coupleName": "Please enter your couple name" } });
    const noUser = await postSetup({ coupleData: setupBody().coupleData }, headers);
    expect(noUser.status).toBe(400);
    expect(noUser.json.error.fields["userData.firstName"]).toBe("First name is required");
    const garbage = await call(completeSetup, "POST", "/api/v2/profile/complete-setup", { rawBody: "{not json", headers });
    expect(garbage.status).toBe(400);
  });

  it.each([
    ["a tracking pixel as avatar", { userData: { avatarUrl: "https://tracker.example.com/p.gif" } }, "userData.avatarUrl"],
    ["a hotlinked couple photo", { coupleData: { photos: [ownImage(), "https://elsewhere.example.com/a.jpg"] } }, "coupleData.photos"],
    ["an outside main photo", { coupleData: { profileImageUrl: "//evil.example.com/a.jpg" } }, "coupleData.profileImageUrl"],
    ["a path beside the image route", { userData: { avatarUrl: "/api/images/../secrets.jpg" } }, "userData.avatarUrl"],
  ])("refuses %s and writes nothing", async (_case, overrides, field) => {
    const { user, headers } = await signedIn();
    const res = await postSetup(setupBody(overrides), headers);
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({ code: "VALIDATION_ERROR", message: NOT_STORED, fields: { [field]: NOT_STORED } });
    expect(await couplesOf(user.id)).toHaveLength(0);
    const db = await getDb();
    const [me] = await db.select({ avatarUrl: users.avatarUrl }).from(users).where(eq(users.id, user.id));
    expect(me!.avatarUrl).toBeNull();
  });

  it("refuses a place the provider does not know and writes nothing", async () => {
    const { user, headers } = await signedIn();
    const res = await postSetup(setupBody({ coupleData: { placeId: "geonames:999999999" } }), headers);
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("INVALID_LOCATION_DATA");
    expect(await couplesOf(user.id)).toHaveLength(0);
  });

  it("leaves neither the user change nor a couple nor a location behind when the transaction fails", async () => {
    const { user } = await signedIn();
    const body = setupBody({ userData: { firstName: "Changed" } });
    const { profileCompletionSchema } = await import("@/lib/profile/rules");
    await expect(completeProfileSetup(await failingDb(), user.id, profileCompletionSchema.parse(body))).rejects.toThrow();
    const db = await getDb();
    const [me] = await db.select({ firstName: users.firstName, avatarUrl: users.avatarUrl }).from(users).where(eq(users.id, user.id));
    expect(me).toEqual({ firstName: "Ada", avatarUrl: null });
    expect(await couplesOf(user.id)).toHaveLength(0);
  });

  it("answers 401 without a session and 403 for a cookie without the CSRF token", async () => {
    const { user, headers } = await signedIn();
    expect((await postSetup(setupBody(), {})).status).toBe(401);
    const res = await postSetup(setupBody(), { cookie: headers.cookie! });
    expect(res.status).toBe(403);
    expect(res.json.error.code).toBe("CSRF_VALIDATION_FAILED");
    expect(await couplesOf(user.id)).toHaveLength(0);
  });
});

describe("POST /api/v2/couples", () => {
  it("creates the caller's couple, complete and discoverable, for a bearer client without CSRF", async () => {
    const { user } = await afterStep1();
    const session = await apiSession(user.email);
    const res = await postCouple(coupleBody(), bearer(session.access_token));
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ success: true, data: { partner1Id: user.id, coupleName: "Ada & Grace", placeId: LISBON, status: "active", partnerAVerified: true, isVisible: true } });
    expect(await coupleLocation(res.json.data.id)).toMatchObject({ placeId: LISBON, privacyLevel: "city" });
  });

  it("takes the helper variant (couple_name) and falls back to the step 1 place and interests", async () => {
    const { headers } = await afterStep1();
    const res = await postCouple(
      { couple_name: "Porto Pair", location: "ignored text", coupleTypes: ["career_climbers"], bio: "Two people, one espresso machine." },
      headers,
    );
    expect(res.status).toBe(201);
    expect(res.json.data).toMatchObject({ coupleName: "Porto Pair", placeId: PORTO, location: "Porto, Portugal", interests: INTEREST_VALUES.slice(0, 6), photos: [], profileImageUrl: null });
  });

  it("asks for a place when none is sent and none was saved in step 1", async () => {
    const { user, headers } = await signedIn();
    const res = await postCouple(coupleBody({ placeId: undefined }), headers);
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({ code: "VALIDATION_ERROR", message: "Please select a location from the dropdown suggestions" });
    expect(await couplesOf(user.id)).toHaveLength(0);
  });

  it("answers a second couple with 409 COUPLE_EXISTS and existingCoupleId, creating nothing", async () => {
    const { user, headers, coupleId } = await withCouple();
    const res = await postCouple(coupleBody({ coupleName: "Another" }), headers);
    expect(res.status).toBe(409);
    expect(res.json).toMatchObject({ existingCoupleId: coupleId, error: { code: "COUPLE_EXISTS" } });
    expect(await couplesOf(user.id)).toHaveLength(1);
    expect((await coupleRow(coupleId))!.coupleName).toBe("Ada & Grace");
  });

  it("answers partner B, who already belongs to a couple, with COUPLE_EXISTS too", async () => {
    const { coupleId } = await withCouple();
    const b = await joinAsPartnerB(coupleId);
    const res = await postCouple(coupleBody(), b.headers);
    expect(res.status).toBe(409);
    expect(res.json.existingCoupleId).toBe(coupleId);
    expect(await couplesOf(b.user.id)).toHaveLength(0);
  });

  it.each([
    ["a number as couple name", { coupleName: 7 }, "coupleName", "Please enter your couple name"],
    ["a 101-character couple name", { coupleName: "x".repeat(101) }, "coupleName", "Couple name must be no more than 100 characters"],
    ["four adventure styles", { coupleTypes: ["global_adventurers", "culture_curators", "mindful_adventurers", "career_climbers"] }, "coupleTypes", "Please select up to 3 adventure styles"],
    ["a bio under 10 characters", { bio: "short" }, "bio", "Please share more about yourselves (at least 10 characters)"],
    ["a 301-character place id", { placeId: "x".repeat(301) }, "placeId", "Please select a location from the dropdown suggestions"],
    ["photos as a string", { photos: ownImage() }, "photos", NOT_STORED],
    ["an outside photo", { photos: ["https://cdn.example.com/a.jpg"] }, "photos", NOT_STORED],
  ])("refuses %s with 400 and writes nothing", async (_case, overrides, field, message) => {
    const { user, headers } = await afterStep1();
    const res = await postCouple(coupleBody(overrides), headers);
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("VALIDATION_ERROR");
    expect(res.json.error.fields[field]).toBe(message);
    expect(await couplesOf(user.id)).toHaveLength(0);
  });

  it("answers 401 without a session and 403 for a cookie without the CSRF token", async () => {
    const { headers } = await afterStep1();
    expect((await postCouple(coupleBody(), {})).status).toBe(401);
    expect((await postCouple(coupleBody(), { cookie: headers.cookie! })).status).toBe(403);
  });
});

describe("PUT /api/v2/couples/{id}", () => {
  it("changes only the fields sent", async () => {
    const { headers, coupleId } = await withCouple();
    const before = await coupleRow(coupleId);
    const res = await putCouple(coupleId, { bio: "A brand new story about us." }, headers);
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({ id: coupleId, bio: "A brand new story about us.", coupleName: before!.coupleName, photos: before!.photos });
    expect(await coupleRow(coupleId)).toMatchObject({ ...before, bio: "A brand new story about us.", updatedAt: expect.any(Date) });
  });

  it("moves the couple to a new place resolved on the server, keeping its privacy level", async () => {
    const { headers, coupleId } = await withCouple();
    const db = await getDb();
    await db.update(locations).set({ privacyLevel: "hidden" }).where(eq(locations.entityId, coupleId));
    const res = await putCouple(coupleId, { placeId: PORTO, location: "Client text", latitude: 1, longitude: 2, coupleTypes: ["mindful_adventurers"] }, headers);
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({ placeId: PORTO, location: "Porto, Portugal", coupleTypes: ["mindful_adventurers"] });
    const place = await coupleLocation(coupleId);
    expect(place).toMatchObject({ placeId: PORTO, city: "Porto", privacyLevel: "hidden" });
    expect(place!.latitude).toBeCloseTo(41.1, 0);
  });

  it("lets partner B change the couple too", async () => {
    const { coupleId } = await withCouple();
    const b = await joinAsPartnerB(coupleId);
    const res = await putCouple(coupleId, { coupleName: "Bea & Ada" }, b.headers);
    expect(res.status).toBe(200);
    expect((await coupleRow(coupleId))!.coupleName).toBe("Bea & Ada");
  });

  it.each([
    ["another couple's id", "other"],
    ["an id that names no couple", "00000000-0000-4000-8000-000000000000"],
    ["a malformed id", "not-a-uuid"],
    ["an injection attempt", "1' or '1'='1"],
  ])("answers %s with 404 NOT_FOUND and changes nothing", async (_case, id) => {
    const mine = await withCouple();
    const theirs = await withCouple({ coupleName: "Theirs" });
    const target = id === "other" ? theirs.coupleId : id;
    const before = await coupleRow(theirs.coupleId);
    const res = await putCouple(target, { coupleName: "Hijacked", placeId: PORTO }, mine.headers);
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe("NOT_FOUND");
    expect(await coupleRow(theirs.coupleId)).toEqual(before);
    expect((await coupleRow(mine.coupleId))!.coupleName).toBe("Ada & Grace");
    expect(await coupleLocation(theirs.coupleId)).toMatchObject({ placeId: LISBON });
  });

  it.each([
    ["another couple's id", "other"],
    ["a malformed id", "not-a-uuid"],
    ["an id that names no couple", "00000000-0000-4000-8000-000000000000"],
  ])("checks whose couple %s is before looking the place up (each lookup is billed)", async (_case, id) => {
    const mine = await withCouple();
    const theirs = await withCouple();
    const { places, details } = countingPlaces();
    const target = id === "other" ? theirs.coupleId : id;
    await expect(updateCouple(await getDb(), mine.user.id, target, { placeId: PORTO }, { places })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(details).not.toHaveBeenCalled();
    await updateCouple(await getDb(), mine.user.id, mine.coupleId, { placeId: PORTO }, { places });
    expect(details).toHaveBeenCalledTimes(1);
  });

  it.each([
    ["an empty body", {}, "_", "Nothing to update"],
    ["only unknown keys", { partner1Id: "00000000-0000-4000-8000-000000000000", status: "banned" }, "_", "Nothing to update"],
    ["a couple types string", { coupleTypes: "career_climbers" }, "coupleTypes", "Please select at least one adventure style"],
    ["four interests", { interests: INTEREST_VALUES.slice(0, 4) }, "interests", "Please select at least 5 interests"],
    ["an outside main photo", { profileImageUrl: "https://pixel.example.com/1x1.gif" }, "profileImageUrl", NOT_STORED],
  ])("refuses %s with 400 and changes nothing", async (_case, body, field, message) => {
    const { headers, coupleId } = await withCouple();
    const before = await coupleRow(coupleId);
    const res = await putCouple(coupleId, body, headers);
    expect(res.status).toBe(400);
    expect(res.json.error.fields[field]).toBe(message);
    expect(await coupleRow(coupleId)).toEqual(before);
  });

  it("leaves the couple and its location as they were when the transaction fails", async () => {
    const { user, coupleId } = await withCouple();
    const before = await coupleRow(coupleId);
    const placeBefore = await coupleLocation(coupleId);
    await expect(updateCouple(await failingDb(), user.id, coupleId, { coupleName: "Half", placeId: PORTO })).rejects.toThrow();
    expect(await coupleRow(coupleId)).toEqual(before);
    expect(await coupleLocation(coupleId)).toEqual(placeBefore);
  });
});

describe("PUT /api/couples/update", () => {
  it("changes the caller's own couple when no id is sent", async () => {
    const { headers, coupleId } = await withCouple();
    const res = await putFallback({ coupleName: "Fallback Name" }, headers);
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({ id: coupleId, coupleName: "Fallback Name" });
  });

  it("changes the couple named by id when it is the caller's, and refuses another couple's with 404", async () => {
    const mine = await withCouple();
    const theirs = await withCouple();
    expect((await putFallback({ id: mine.coupleId, coupleName: "Ours" }, mine.headers)).status).toBe(200);
    const res = await putFallback({ id: theirs.coupleId, coupleName: "Hijacked" }, mine.headers);
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe("NOT_FOUND");
    expect((await coupleRow(theirs.coupleId))!.coupleName).toBe("Ada & Grace");
  });

  it("answers 'No couple found to update' when the caller has no couple", async () => {
    const { headers } = await signedIn();
    const res = await putFallback({ coupleName: "Nobody" }, headers);
    expect(res.status).toBe(404);
    expect(res.json.error).toEqual({ code: "NO_COUPLE", message: "No couple found to update" });
  });

  it("refuses an id that is not a string with 400", async () => {
    const { headers, coupleId } = await withCouple();
    const res = await putFallback({ id: 12, coupleName: "Typed" }, headers);
    expect(res.status).toBe(400);
    expect((await coupleRow(coupleId))!.coupleName).toBe("Ada & Grace");
  });
});

describe("GET /api/couples/{id}/full-profile", () => {
  /** A couple whose location row names a street, its city, region and country. */
  async function placedCouple(privacyLevel: "full" | "city" | "region" | "country" | "hidden") {
    const owner = await withCouple();
    const db = await getDb();
    await db
      .update(locations)
      .set({ displayLocation: "Rua Augusta 24, Lisbon", city: "Lisbon", state: "Lisbon District", country: "Portugal", privacyLevel })
      .where(eq(locations.entityId, owner.coupleId));
    return owner;
  }

  it("shows its own partners everything, with labels, roles and the badge", async () => {
    const { user, headers, coupleId } = await placedCouple("hidden");
    const b = await joinAsPartnerB(coupleId);
    for (const viewer of [headers, b.headers]) {
      const res = await getProfile(coupleId, viewer);
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({
        success: true,
        data: {
          id: coupleId,
          coupleName: "Ada & Grace",
          location: "Rua Augusta 24, Lisbon",
          coupleTypes: [
            { value: "global_adventurers", label: "Global Adventurers" },
            { value: "culture_curators", label: "Culture Curators" },
          ],
          interests: expect.arrayContaining([{ value: INTEREST_VALUES[2], label: expect.any(String) }]),
          status: "active",
          badge: "Beta Member",
          isOwn: true,
          partners: [
            { id: user.id, role: "A", firstName: "Ada", lastName: "Lovelace", age: expect.any(Number), occupation: "Engineer", avatarUrl: null },
            { id: b.user.id, role: "B", firstName: "Bea", lastName: "Byron", age: expect.any(Number), occupation: "Poet", avatarUrl: null },
          ],
        },
      });
    }
  });

  it.each([
    ["full", "Rua Augusta 24, Lisbon"],
    ["city", "Lisbon, Lisbon District, Portugal"],
    ["region", "Lisbon District, Portugal"],
    ["country", "Portugal"],
    ["hidden", null],
  ] as const)("shows another couple the location at privacy level %s as %j", async (level, shown) => {
    const { coupleId } = await placedCouple(level);
    const other = await withCouple();
    const res = await getProfile(coupleId, other.headers);
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({ id: coupleId, location: shown, isOwn: false });
  });

  it("gives the verified badge once both partners are verified", async () => {
    const { coupleId } = await withCouple();
    const b = await joinAsPartnerB(coupleId);
    const db = await getDb();
    await db.update(couples).set({ partnerBVerified: true, isVerified: true }).where(eq(couples.id, coupleId));
    const res = await getProfile(coupleId, b.headers);
    expect(res.json.data).toMatchObject({ badge: "Verified Couple", isVerified: true });
  });

  it("answers others 404 for a hidden or inactive couple, exactly as for a missing one, while its partners still see it", async () => {
    const other = await signedIn();
    const missing = await getProfile("00000000-0000-4000-8000-000000000000", other.headers);
    expect(missing.status).toBe(404);
    for (const change of [{ isVisible: false }, { status: "suspended" }]) {
      const { headers, coupleId } = await withCouple();
      const db = await getDb();
      await db.update(couples).set(change).where(eq(couples.id, coupleId));
      const res = await getProfile(coupleId, other.headers);
      expect(res.status).toBe(404);
      expect(res.json).toEqual(missing.json);
      expect((await getProfile(coupleId, headers)).status).toBe(200);
    }
  });

  it.each(["not-a-uuid", "1; drop table couples", "%00"])("answers the malformed id %j with 404, not 500", async (id) => {
    const { headers } = await signedIn();
    const res = await getProfile(id, headers);
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe("NOT_FOUND");
  });

  it("leaks no e-mail, password hash or exact coordinates", async () => {
    const { coupleId } = await placedCouple("city");
    const other = await withCouple();
    const text = JSON.stringify((await getProfile(coupleId, other.headers)).json);
    expect(text).not.toMatch(/email|password|argon2|latitude|longitude|Rua Augusta/i);
  });

  it("answers 401 without a session", async () => {
    const { coupleId } = await withCouple();
    const res = await call(fullProfile, "GET", `/api/couples/${coupleId}/full-profile`, { params: { id: coupleId } });
    expect(res.status).toBe(401);
  });
});

describe("image URLs in JSON calls", () => {
  it("refuses another couple's photo, on the couple and as the caller's avatar, and changes nothing", async () => {
    const theirs = await withCouple();
    const theirPhoto = ownImage("couple-main");
    await showPhotos(theirs.coupleId, { profileImageUrl: theirPhoto });
    const { user, headers, coupleId } = await withCouple();

    const res = await putCouple(coupleId, { profileImageUrl: theirPhoto }, headers);
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({ code: "VALIDATION_ERROR", fields: { profileImageUrl: NOT_STORED } });
    expect((await coupleRow(coupleId))!.profileImageUrl).toBeNull();
    const setup = await postSetup(setupBody({ userData: { avatarUrl: theirPhoto } }), headers);
    expect(setup.json.error).toMatchObject({ code: "VALIDATION_ERROR", fields: { "userData.avatarUrl": NOT_STORED } });
    const db = await getDb();
    const [me] = await db.select({ avatarUrl: users.avatarUrl }).from(users).where(eq(users.id, user.id));
    expect(me!.avatarUrl).toBeNull();
  });
});

describe("replaced couple photos", () => {
  it("removes the main photo and the extra photos a change dropped, once it is saved, and keeps the rest", async () => {
    const [keptPhoto, droppedPhoto, promoted, oldMain] = [ownImage(), ownImage(), ownImage(), ownImage("couple-main")];
    const { user, coupleId } = await withCouple();
    await showPhotos(coupleId, { photos: [keptPhoto, droppedPhoto, promoted], profileImageUrl: oldMain });
    const { storage, deleted } = recordingStorage();
    await updateCouple(await getDb(), user.id, coupleId, { profileImageUrl: promoted, photos: [keptPhoto] }, { storage });
    expect(deleted.sort()).toEqual([keyOf(droppedPhoto), keyOf(oldMain)].sort());
    expect(await coupleRow(coupleId)).toMatchObject({ profileImageUrl: promoted, photos: [keptPhoto] });
  });

  it("removes nothing when the photos did not change, and nothing when the change fails", async () => {
    const { user, coupleId } = await withCouple();
    const { storage, deleted } = recordingStorage();
    await updateCouple(await getDb(), user.id, coupleId, { coupleName: "Same photos" }, { storage });
    await expect(updateCouple(await failingDb(), user.id, coupleId, { photos: [] }, { storage })).rejects.toThrow();
    expect(deleted).toEqual([]);
  });

  it("keeps a replaced photo that a partner's profile still shows", async () => {
    const [shared, other] = [ownImage("couple-main"), ownImage()];
    const { user, coupleId } = await withCouple();
    await showPhotos(coupleId, { profileImageUrl: shared, photos: [other] });
    const b = await joinAsPartnerB(coupleId);
    const db = await getDb();
    await db.update(users).set({ avatarUrl: shared }).where(eq(users.id, b.user.id));
    const { storage, deleted } = recordingStorage();
    await updateCouple(db, user.id, coupleId, { profileImageUrl: other, photos: [] }, { storage });
    expect(deleted).toEqual([]);
  });

  it("removes the avatar and couple photo that complete-setup replaced", async () => {
    const oldAvatar = ownImage("avatar");
    const oldMain = ownImage("couple-main");
    const [toAvatar, toMain] = [ownImage(), ownImage()];
    const { user, coupleId } = await withCouple();
    await showPhotos(coupleId, { profileImageUrl: oldMain, photos: [toAvatar, toMain] });
    const db = await getDb();
    await db.update(users).set({ avatarUrl: oldAvatar }).where(eq(users.id, user.id));
    const { storage, deleted } = recordingStorage();
    const { profileCompletionSchema } = await import("@/lib/profile/rules");
    // Couple photos move to the avatar and the main photo: they stay, the two they replaced go.
    const body = setupBody({ userData: { avatarUrl: toAvatar }, coupleData: { profileImageUrl: toMain, photos: [] } });
    await completeProfileSetup(db, user.id, profileCompletionSchema.parse(body), { storage });
    expect(deleted.sort()).toEqual([keyOf(oldAvatar), keyOf(oldMain)].sort());
    expect((await coupleRow(coupleId))!.profileImageUrl).toBe(toMain);
  });
});

describe("one couple per user", () => {
  /** True once some statement of this database waits for a row lock. */
  async function someoneWaitsForALock() {
    const db = await getDb();
    const waiting = await db
      .select({ pid: sql<number>`pid` })
      .from(sql`pg_stat_activity`)
      .where(sql`datname = current_database() and wait_event_type = 'Lock'`);
    return waiting.length > 0;
  }

  const creators = {
    "POST /api/v2/couples": (userId: string) => async () => createCouple(await getDb(), userId, coupleCreateSchema.parse(coupleBody())),
    "complete-setup": (userId: string) => async () => {
      const { profileCompletionSchema } = await import("@/lib/profile/rules");
      return completeProfileSetup(await getDb(), userId, profileCompletionSchema.parse(setupBody()));
    },
  };

  it.each(Object.keys(creators) as (keyof typeof creators)[])(
    "never puts a user in two couples when %s races with the user joining another couple",
    async (creator) => {
      const theirs = await withCouple();
      const { user } = await afterStep1();
      const db = await getDb();
      let creating: Promise<unknown> | undefined;
      let settled = false;
      // A join as lib/invitations does it: lock the user's row, see no couple yet, become partner 2.
      const join = db.transaction(async (tx) => {
        await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for("update");
        const mine = await tx.select({ id: couples.id }).from(couples).where(or(eq(couples.partner1Id, user.id), eq(couples.partner2Id, user.id)));
        expect(mine).toEqual([]);
        creating = creators[creator](user.id)().finally(() => (settled = true));
        creating.catch(() => {});
        // The create either finishes unhindered (no lock) or stops at the user's row: only then does the join go on.
        while (!settled && !(await someoneWaitsForALock())) await new Promise((resolve) => setTimeout(resolve, 10));
        await tx.update(couples).set({ partner2Id: user.id }).where(eq(couples.id, theirs.coupleId));
      });
      const [joined, created] = await Promise.allSettled([join, join.then(() => creating)]);
      expect(joined.status).toBe("fulfilled");
      expect(created).toMatchObject({ status: "rejected", reason: { code: "COUPLE_EXISTS" } });
      const memberships = await db.select({ id: couples.id }).from(couples).where(or(eq(couples.partner1Id, user.id), eq(couples.partner2Id, user.id)));
      expect(memberships).toEqual([{ id: theirs.coupleId }]);
    },
  );
});

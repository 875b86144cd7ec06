import { readdir, rm } from "node:fs/promises";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { NextRequest } from "next/server";
import sharp from "sharp";
import { afterAll, describe, expect, it, vi } from "vitest";

// Before any module reads the configuration: this file's uploads go to a folder of its own.
const uploads = vi.hoisted(() => {
  const dir = `${process.env.TMPDIR ?? "/tmp"}/onboarding-${process.pid}-${Date.now()}/uploads`;
  process.env.STORAGE_DIR = dir;
  delete process.env.S3_BUCKET;
  delete process.env.GOOGLE_MAPS_API_KEY;
  return dir;
});

const { POST: step1 } = await import("@/app/api/onboarding/step1/route");
const { POST: step2 } = await import("@/app/api/onboarding/step2/route");
const { GET: me } = await import("@/app/api/v2/auth/me/route");
const { getDb } = await import("@/db/client");
const { couples, locations, users } = await import("@/db/schema");
const { completeStep1, completeStep2 } = await import("@/lib/onboarding/service");
const { INTEREST_VALUES } = await import("@/lib/interests/catalogue");
const { failingDb } = await import("../support/failing-db");
const { browserSession, call, createUser, freshAddress } = await import("../support/api");

afterAll(() => rm(path.dirname(uploads), { recursive: true, force: true }));

const LISBON = "geonames:2267057";
type Handler = typeof step1;
type Fields = Record<string, string | string[] | Buffer | Buffer[] | undefined>;

const jpeg = (width = 900, height = 700) => sharp({ create: { width, height, channels: 3, background: "#336699" } }).jpeg().toBuffer();

/** A multipart form as the browser builds it: repeated names for lists, File parts for images. */
function formOf(fields: Fields): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    for (const item of value === undefined ? [] : Array.isArray(value) ? value : [value]) {
      if (typeof item === "string") form.append(name, item);
      else form.append(name, new File([new Uint8Array(item)], "photo.jpg", { type: "image/jpeg" }));
    }
  }
  return form;
}

async function post(handler: Handler, url: string, body: FormData | string, headers: Record<string, string>) {
  const request = new NextRequest(new URL(url, "http://localhost:3000"), {
    method: "POST",
    headers: { "x-forwarded-for": freshAddress(), ...headers },
    body,
  });
  const response = await handler(request, { params: Promise.resolve({}) as never });
  return { status: response.status, json: await response.json() };
}

async function signedIn() {
  const user = await createUser();
  const session = await browserSession(user.id);
  return { user, headers: { cookie: session.cookie, "x-csrf-token": session.csrf } };
}

const step1Fields = async (overrides: Fields = {}): Promise<Fields> => ({
  occupation: "Engineer",
  locationName: "Lisbon, Portugal",
  locationPlaceId: LISBON,
  userImage: await jpeg(),
  "interests[]": INTEREST_VALUES.slice(0, 6),
  ...overrides,
});

const step2Fields = async (overrides: Fields = {}): Promise<Fields> => ({
  couple_name: "Ada & Grace",
  "coupleTypes[]": ["global_adventurers", "culture_curators"],
  bio: "We travel, we cook, we argue about maps.",
  coupleProfileImage: await jpeg(),
  couplePhotos: [await jpeg(1200, 800), await jpeg(800, 1200)],
  ...overrides,
});

const postStep1 = async (headers: Record<string, string>, overrides: Fields = {}) => post(step1, "/api/onboarding/step1", formOf(await step1Fields(overrides)), headers);
const postStep2 = async (headers: Record<string, string>, overrides: Fields = {}) => post(step2, "/api/onboarding/step2", formOf(await step2Fields(overrides)), headers);

/** Every stored file, as paths relative to the uploads folder. */
async function storedFiles(): Promise<string[]> {
  const entries = await readdir(uploads, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => path.relative(uploads, path.join(entry.parentPath, entry.name))).sort();
}

const fileOfUrl = (url: string) => path.join(uploads, url.replace(/^\/api\/images\//, ""));

async function coupleLocationCount() {
  const db = await getDb();
  return (await db.select({ id: locations.id }).from(locations).where(eq(locations.entityType, "couple"))).length;
}

describe("POST /api/onboarding/step1", () => {
  it("saves photo, occupation, interests and the resolved place, with a city-level location row", async () => {
    const { user, headers } = await signedIn();
    const res = await postStep1(headers, { occupation: "  Engineer  " });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ success: true, data: { occupation: "Engineer", isPartnerB: false, location: { placeId: LISBON, city: "Lisbon", countryCode: "PT" } } });

    const db = await getDb();
    const [row] = await db.select().from(users).where(eq(users.id, user.id));
    expect(row).toMatchObject({ occupation: "Engineer", interests: INTEREST_VALUES.slice(0, 6), placeId: LISBON, city: "Lisbon", country: "Portugal", countryCode: "PT" });
    expect(row!.location).toContain("Lisbon");
    expect(row!.latitude).toBeCloseTo(38.7, 0);
    expect(row!.longitude).toBeCloseTo(-9.1, 0);
    expect(row!.avatarUrl).toBe(res.json.data.avatarUrl);

    const [place] = await db.select().from(locations).where(and(eq(locations.entityType, "user"), eq(locations.entityId, user.id)));
    expect(place).toMatchObject({ placeId: LISBON, privacyLevel: "city", city: "Lisbon", countryCode: "PT" });

    const avatar = await sharp(fileOfUrl(row!.avatarUrl!)).metadata();
    expect(avatar).toMatchObject({ format: "jpeg", width: 400, height: 400 });
  });

  it("keeps the saved photo and the chosen privacy level when step 1 is sent again without a photo", async () => {
    const { user, headers } = await signedIn();
    const first = await postStep1(headers);
    const db = await getDb();
    await db.update(locations).set({ privacyLevel: "region" }).where(eq(locations.entityId, user.id));
    const again = await postStep1(headers, { userImage: undefined, occupation: "Pilot" });
    expect(again.status).toBe(200);
    expect(again.json.data).toMatchObject({ occupation: "Pilot", avatarUrl: first.json.data.avatarUrl });
    const [place] = await db.select().from(locations).where(eq(locations.entityId, user.id));
    expect(place!.privacyLevel).toBe("region");
  });

  it("removes the replaced photo once step 1 is saved again with a new one", async () => {
    const { headers } = await signedIn();
    const first = await postStep1(headers);
    const again = await postStep1(headers, { userImage: await jpeg(640, 480) });
    expect(again.status).toBe(200);
    expect(again.json.data.avatarUrl).not.toBe(first.json.data.avatarUrl);
    const files = await storedFiles();
    expect(files).toContain(path.relative(uploads, fileOfUrl(again.json.data.avatarUrl)));
    expect(files).not.toContain(path.relative(uploads, fileOfUrl(first.json.data.avatarUrl)));
  });

  it("answers the photo first when the photo and the location are both missing, with both fields' messages", async () => {
    const { headers } = await signedIn();
    const res = await postStep1(headers, { userImage: undefined, locationPlaceId: "", locationName: "", occupation: "" });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({
      code: "VALIDATION_ERROR",
      message: "Please upload your profile photo",
      fields: {
        userImage: "Please upload your profile photo",
        locationPlaceId: "Please select a location from the dropdown suggestions",
        occupation: "Occupation is required",
      },
    });
  });

  it.each([
    ["no photo and none saved", { userImage: undefined }, "Please upload your profile photo"],
    ["no place id", { locationPlaceId: "" }, "Please select a location from the dropdown suggestions"],
    ["no location name", { locationName: undefined }, "Please select a location from the dropdown suggestions"],
    ["no occupation", { occupation: " " }, "Occupation is required"],
    ["an occupation over 100 characters", { occupation: "x".repeat(101) }, "Occupation must be no more than 100 characters"],
    ["4 interests", { "interests[]": INTEREST_VALUES.slice(0, 4) }, "Please select at least 5 interests"],
    ["26 interests", { "interests[]": INTEREST_VALUES.slice(0, 26) }, "Please select no more than 25 interests"],
    ["an unknown interest", { "interests[]": [...INTEREST_VALUES.slice(0, 5), "knitting"] }, "Please select interests from the list"],
    ["a text file named .jpg", { userImage: Buffer.from("not an image at all") }, "Please select a valid image file (JPEG, PNG, or WebP)"],
    ["a corrupt JPEG", { userImage: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]) }, "Please select a valid image file (JPEG, PNG, or WebP)"],
  ])("refuses %s with the spec's message and writes nothing", async (_case, overrides, message) => {
    const { user, headers } = await signedIn();
    const before = await storedFiles();
    const res = await postStep1(headers, overrides);
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({ code: "VALIDATION_ERROR", message });
    const db = await getDb();
    const [row] = await db.select({ occupation: users.occupation, avatarUrl: users.avatarUrl }).from(users).where(eq(users.id, user.id));
    expect(row).toEqual({ occupation: null, avatarUrl: null });
    expect(await storedFiles()).toEqual(before);
  });

  it("refuses a place the places provider does not know", async () => {
    const { headers } = await signedIn();
    const res = await postStep1(headers, { locationPlaceId: "geonames:999999999" });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("INVALID_LOCATION_DATA");
  });

  it("answers 401 without a session and 403 for a cookie without the CSRF token", async () => {
    const { headers } = await signedIn();
    expect((await postStep1({})).status).toBe(401);
    const res = await postStep1({ cookie: headers.cookie });
    expect(res.status).toBe(403);
    expect(res.json.error.code).toBe("CSRF_VALIDATION_FAILED");
  });

  it("answers a JSON body or a broken multipart body with a clear 400, not a crash", async () => {
    const { headers } = await signedIn();
    const json = await post(step1, "/api/onboarding/step1", JSON.stringify({ occupation: "x" }), { ...headers, "content-type": "application/json" });
    expect(json.status).toBe(400);
    expect(json.json.error.message).toBe("The request body must be multipart/form-data.");
    const broken = await post(step1, "/api/onboarding/step1", "garbage", { ...headers, "content-type": "multipart/form-data; boundary=nope" });
    expect(broken.status).toBe(400);
  });

  it("leaves neither a half profile nor the stored photo when the transaction fails", async () => {
    const { user } = await signedIn();
    const before = await storedFiles();
    const input = { occupation: "Engineer", locationName: "Lisbon", locationPlaceId: LISBON, interests: INTEREST_VALUES.slice(0, 5) };
    await expect(completeStep1(await failingDb(), user.id, input, { userImage: await jpeg() })).rejects.toThrow();
    const db = await getDb();
    const [row] = await db.select({ occupation: users.occupation, placeId: users.placeId, avatarUrl: users.avatarUrl }).from(users).where(eq(users.id, user.id));
    expect(row).toEqual({ occupation: null, placeId: null, avatarUrl: null });
    expect(await db.select().from(locations).where(eq(locations.entityId, user.id))).toHaveLength(0);
    expect(await storedFiles()).toEqual(before);
  });
});

describe("POST /api/onboarding/step2", () => {
  /** A user who finished step 1. */
  async function afterStep1() {
    const signed = await signedIn();
    expect((await postStep1(signed.headers)).status).toBe(200);
    return signed;
  }

  it("creates the active, visible couple with partner A verified, and /me then answers 200", async () => {
    const { user, headers } = await afterStep1();
    expect((await call(me, "GET", "/api/v2/auth/me", { headers: { cookie: headers.cookie } })).status).toBe(409);

    const res = await postStep2(headers, { couple_name: "  Ada & Grace  " });
    expect(res.status).toBe(201);
    expect(res.json).toEqual({ success: true, data: { coupleId: expect.stringMatching(/^[0-9a-f-]{36}$/), profileCompletionPercentage: 100 } });

    const db = await getDb();
    const [couple] = await db.select().from(couples).where(eq(couples.id, res.json.data.coupleId));
    expect(couple).toMatchObject({
      partner1Id: user.id,
      partner2Id: null,
      coupleName: "Ada & Grace",
      bio: "We travel, we cook, we argue about maps.",
      coupleTypes: ["global_adventurers", "culture_curators"],
      interests: INTEREST_VALUES.slice(0, 6),
      placeId: LISBON,
      status: "active",
      partnerAVerified: true,
      partnerBVerified: false,
      isVerified: false,
      isVisible: true,
    });
    expect(couple!.partnerACompletedAt!.getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(couple!.location).toContain("Lisbon");
    expect(await sharp(fileOfUrl(couple!.profileImageUrl!)).metadata()).toMatchObject({ width: 400, height: 400 });
    expect(couple!.photos).toHaveLength(2);
    for (const url of couple!.photos) expect(await sharp(fileOfUrl(url)).metadata()).toMatchObject({ width: 600, height: 450 });

    const [place] = await db.select().from(locations).where(and(eq(locations.entityType, "couple"), eq(locations.entityId, couple!.id)));
    expect(place).toMatchObject({ placeId: LISBON, privacyLevel: "city", city: "Lisbon" });

    const current = await call(me, "GET", "/api/v2/auth/me", { headers: { cookie: headers.cookie } });
    expect(current.status).toBe(200);
    expect(current.json).toMatchObject({ coupleId: couple!.id, coupleName: "Ada & Grace", coupleStatus: "active", partnerAVerified: true, isVisible: true });
  });

  it("refuses a second couple with 409 COUPLE_EXISTS naming the first, and stores none of its photos", async () => {
    const { user, headers } = await afterStep1();
    const first = await postStep2(headers);
    const before = await storedFiles();
    const again = await postStep2(headers, { couple_name: "Another" });
    expect(again.status).toBe(409);
    expect(again.json).toMatchObject({ existingCoupleId: first.json.data.coupleId, error: { code: "COUPLE_EXISTS", message: "You already have a couple profile" } });
    const db = await getDb();
    expect(await db.select().from(couples).where(eq(couples.partner1Id, user.id))).toHaveLength(1);
    expect(await storedFiles()).toEqual(before);
  });

  it("refuses step 2 before step 1", async () => {
    const { headers } = await signedIn();
    const res = await postStep2(headers);
    expect(res.status).toBe(400);
    expect(res.json.error.message).toBe("Please complete your individual profile first");
  });

  it("answers the main photo before the adventure styles and the bio, after the couple name (spec section 5)", async () => {
    const { headers } = await afterStep1();
    const noPhoto = await postStep2(headers, { coupleProfileImage: undefined, "coupleTypes[]": undefined, bio: "short" });
    expect(noPhoto.json.error).toMatchObject({
      message: "Please upload a main couple photo",
      fields: { coupleProfileImage: "Please upload a main couple photo", coupleTypes: "Please select at least one adventure style" },
    });
    const noName = await postStep2(headers, { couple_name: "", coupleProfileImage: undefined });
    expect(noName.json.error.message).toBe("Please enter your couple name");
  });

  it.each([
    ["no couple name", { couple_name: "" }, "Please enter your couple name"],
    ["a couple name over 100 characters", { couple_name: "x".repeat(101) }, "Couple name must be no more than 100 characters"],
    ["no adventure style", { "coupleTypes[]": undefined }, "Please select at least one adventure style"],
    ["four adventure styles", { "coupleTypes[]": ["global_adventurers", "culture_curators", "mindful_adventurers", "career_climbers"] }, "Please select up to 3 adventure styles"],
    ["an older adventure style", { "coupleTypes[]": ["foodie_explorers"] }, "Please select adventure styles from the list"],
    ["a bio under 10 characters", { bio: "Too short" }, "Please share more about yourselves (at least 10 characters)"],
    ["a bio over 1000 characters", { bio: "x".repeat(1001) }, "Bio is too long (maximum 1000 characters)"],
    ["no main photo", { coupleProfileImage: undefined }, "Please upload a main couple photo"],
    ["a text file as an extra photo", { couplePhotos: [Buffer.from("hello")] }, "Please select a valid image file (JPEG, PNG, or WebP)"],
  ])("refuses %s with the spec's message and stores nothing", async (_case, overrides, message) => {
    const { user, headers } = await afterStep1();
    const before = await storedFiles();
    const res = await postStep2(headers, overrides);
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({ code: "VALIDATION_ERROR", message });
    const db = await getDb();
    expect(await db.select().from(couples).where(eq(couples.partner1Id, user.id))).toHaveLength(0);
    expect(await storedFiles()).toEqual(before);
  });

  it("refuses six extra photos, naming the count", async () => {
    const { headers } = await afterStep1();
    const photo = await jpeg(800, 600);
    const res = await postStep2(headers, { couplePhotos: Array.from({ length: 6 }, () => photo) });
    expect(res.status).toBe(400);
    expect(res.json.error.message).toBe("You can only upload up to 5 photos. You currently have 6.");
  });

  it("answers 401 without a session and 403 for a cookie without the CSRF token", async () => {
    const { headers } = await signedIn();
    expect((await postStep2({})).status).toBe(401);
    expect((await postStep2({ cookie: headers.cookie })).status).toBe(403);
  });

  it("leaves no couple row, no couple location and no stored photos when the transaction fails", async () => {
    const { user } = await afterStep1();
    const before = await storedFiles();
    const locationsBefore = await coupleLocationCount();
    const input = { couple_name: "Ada & Grace", coupleTypes: ["global_adventurers"], bio: "Long enough bio here." };
    const images = { coupleProfileImage: await jpeg(), couplePhotos: [await jpeg(1200, 900)] };
    await expect(completeStep2(await failingDb(), user.id, input, images)).rejects.toThrow();
    const db = await getDb();
    expect(await db.select().from(couples).where(eq(couples.partner1Id, user.id))).toHaveLength(0);
    expect(await coupleLocationCount()).toBe(locationsBefore);
    expect(await storedFiles()).toEqual(before);
  });
});

describe("partner B's step 1", () => {
  /** A couple whose partner A has (or has not) completed their part, and partner B signed in. */
  async function coupleWithPartnerB(partnerAVerified: boolean) {
    const a = await createUser();
    const b = await signedIn();
    const db = await getDb();
    const [couple] = await db
      .insert(couples)
      .values({ partner1Id: a.id, partner2Id: b.user.id, coupleName: "Ada & Bea", partnerAVerified, status: "active", isVisible: true })
      .returning({ id: couples.id });
    return { ...b, coupleId: couple!.id };
  }

  const flags = async (coupleId: string) => {
    const db = await getDb();
    const [row] = await db
      .select({ partnerAVerified: couples.partnerAVerified, partnerBVerified: couples.partnerBVerified, isVerified: couples.isVerified })
      .from(couples)
      .where(eq(couples.id, coupleId));
    return row;
  };

  it("verifies partner B and, with partner A verified, the couple (the verified badge)", async () => {
    const { headers, coupleId } = await coupleWithPartnerB(true);
    const res = await postStep1(headers);
    expect(res.status).toBe(200);
    expect(res.json.data.isPartnerB).toBe(true);
    expect(await flags(coupleId)).toEqual({ partnerAVerified: true, partnerBVerified: true, isVerified: true });
  });

  it("verifies partner B but not the couple while partner A's part is not done", async () => {
    const { headers, coupleId } = await coupleWithPartnerB(false);
    expect((await postStep1(headers)).status).toBe(200);
    expect(await flags(coupleId)).toEqual({ partnerAVerified: false, partnerBVerified: true, isVerified: false });
  });

  it("leaves partner B unverified when the transaction fails", async () => {
    const { user, coupleId } = await coupleWithPartnerB(true);
    const input = { occupation: "Engineer", locationName: "Lisbon", locationPlaceId: LISBON, interests: INTEREST_VALUES.slice(0, 5) };
    await expect(completeStep1(await failingDb(), user.id, input, { userImage: await jpeg() })).rejects.toThrow();
    expect(await flags(coupleId)).toEqual({ partnerAVerified: true, partnerBVerified: false, isVerified: false });
  });
});

import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { POST as completeSetup } from "@/app/api/v2/profile/complete-setup/route";
import { PUT as updateProfileRoute } from "@/app/api/v2/profile/update/route";
import { getDb } from "@/db/client";
import { couples, locations, users } from "@/db/schema";
import { completeProfileSetup } from "@/lib/profile/service";
import { INTEREST_VALUES } from "@/lib/interests/catalogue";
import { failingDb } from "../support/failing-db";
import { whileHeld } from "../support/lock-race";
import { onPostgres } from "../support/test-database";
import { browserSession, call } from "../support/api";
import {
  LISBON,
  PORTO,
  NOT_STORED,
  afterStep1,
  coupleBody,
  ownImage,
  signedIn,
  setupBody,
  postCouple,
  postSetup,
  withCouple,
  coupleRow,
  coupleLocation,
  couplesOf,
  joinAsPartnerB,
} from "../support/couples";

describe("POST /api/v2/profile/complete-setup", () => {
  it("updates the user, creates the complete couple at the server-resolved place and answers it with the percentage", async () => {
    const avatar = ownImage("avatar");
    // Step 1 done but for the occupation, which the payload brings.
    const { user, headers } = await afterStep1({ occupation: null, avatarUrl: avatar });
    // A JSON client may show its own photo again, here as the couple's main photo.
    const body = setupBody({
      userData: { firstName: "  Grace ", occupation: "Admiral", avatarUrl: avatar },
      coupleData: { photos: [], profileImageUrl: avatar },
    });
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
    expect(place).toMatchObject({
      placeId: LISBON,
      displayLocation: "Lisbon, Portugal",
      city: "Lisbon",
      country: "Portugal",
      countryCode: "PT",
      privacyLevel: "city",
    });
    expect(place!.latitude).toBeCloseTo(38.7, 0);
  });

  it("refuses a new couple, as POST /api/v2/couples does, while the caller has no profile photo, leaving their row as it was", async () => {
    const noPhoto = await afterStep1({ avatarUrl: null });
    const createCoupleRefusal = await postCouple(coupleBody(), noPhoto.headers);
    expect(createCoupleRefusal.status).toBe(400);
    expect(createCoupleRefusal.json.error).toMatchObject({
      code: "VALIDATION_ERROR",
      message: "Please complete your individual profile first",
    });
    // The photo the payload takes off counts as gone: the rule is judged once userData is applied.
    const photoRemoved = await afterStep1();
    const db = await getDb();
    for (const [{ user, headers }, avatarUrl] of [
      [noPhoto, undefined],
      [photoRemoved, null],
    ] as const) {
      const [before] = await db.select().from(users).where(eq(users.id, user.id));
      const res = await postSetup(setupBody({ userData: { firstName: "Changed", avatarUrl } }), headers);
      expect(res.status).toBe(400);
      expect(res.json.error).toEqual(createCoupleRefusal.json.error);
      expect(await couplesOf(user.id)).toHaveLength(0);
      const [after] = await db.select().from(users).where(eq(users.id, user.id));
      expect(after).toEqual(before);
    }
  });

  it("creates the couple of a caller whose photo is the one the payload gives as their avatar", async () => {
    const avatar = ownImage("avatar");
    const { user, headers } = await afterStep1({ avatarUrl: avatar });
    const res = await postSetup(setupBody({ userData: { avatarUrl: avatar } }), headers);
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({ partner1Id: user.id, isVisible: true });
    expect(await couplesOf(user.id)).toHaveLength(1);
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

  it("completes partner A's part once: a couple that hid since, or was suspended, stays so when the setup is sent again", async () => {
    const { headers, coupleId } = await withCouple();
    const db = await getDb();
    const done = (await coupleRow(coupleId))!.partnerACompletedAt;
    await db.update(couples).set({ isVisible: false }).where(eq(couples.id, coupleId));
    const res = await postSetup(setupBody({ coupleData: { coupleName: "Still Hidden" } }), headers);
    expect(res.status).toBe(200);
    expect(await coupleRow(coupleId)).toMatchObject({ coupleName: "Still Hidden", isVisible: false, partnerACompletedAt: done });
  });

  it("verifies the couple when partner A completes after partner B", async () => {
    const { coupleId } = await withCouple();
    const db = await getDb();
    // As after partner A deleted their account and partner B, not yet verified, became partner A: the old completion stays.
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
    expect(await coupleRow(coupleId)).toMatchObject({
      partner2Id: b.user.id,
      partnerAVerified: false,
      partnerACompletedAt: null,
      partnerBVerified: true,
      isVerified: false,
    });
  });

  it.each([
    [
      "wrong types",
      { userData: { firstName: 42 }, coupleData: { coupleTypes: "global_adventurers" } },
      { "userData.firstName": "First name is required", "coupleData.coupleTypes": "Please select at least one adventure style" },
    ],
    [
      "oversized fields",
      { userData: { occupation: "x".repeat(101) }, coupleData: { coupleName: "x".repeat(101), bio: "x".repeat(1001) } },
      {
        "userData.occupation": "Occupation must be no more than 100 characters",
        "coupleData.coupleName": "Couple name must be no more than 100 characters",
        "coupleData.bio": "Bio is too long (maximum 1000 characters)",
      },
    ],
    [
      "an unknown interest and too many photos",
      { coupleData: { interests: [...INTEREST_VALUES.slice(0, 5), "knitting"], photos: Array.from({ length: 6 }, () => ownImage()) } },
      {
        "coupleData.interests.5": "Please select interests from the list",
        "coupleData.photos": "You can only upload up to 5 photos. You currently have 6.",
      },
    ],
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
    expect(missing.json.error).toMatchObject({
      message: "Please enter your couple name",
      fields: { "coupleData.coupleName": "Please enter your couple name" },
    });
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
    const { profileCompletionSchema } = await import("@/lib/profile/schemas");
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

describe("a couple's partner A keeps the individual profile the couple was created on", () => {
  it("complete-setup called again taking the photo away is refused (400): the couple keeps partner A's photo", async () => {
    const { user, headers, coupleId } = await withCouple();
    const db = await getDb();
    const [before] = await db.select({ avatarUrl: users.avatarUrl }).from(users).where(eq(users.id, user.id));
    const res = await postSetup(setupBody({ userData: { firstName: "Changed", avatarUrl: null } }), headers);
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({ code: "VALIDATION_ERROR", message: "Please complete your individual profile first" });
    const [after] = await db.select({ avatarUrl: users.avatarUrl, firstName: users.firstName }).from(users).where(eq(users.id, user.id));
    expect(after).toEqual({ avatarUrl: before!.avatarUrl, firstName: user.firstName });
    expect((await coupleRow(coupleId))!.partnerACompletedAt).not.toBeNull();
  });

  it("a profile update taking partner A's photo away is refused (400); one with no couple takes it away", async () => {
    const { user, headers } = await withCouple();
    const refused = await call(updateProfileRoute, "PUT", "/api/v2/profile/update", { body: { avatarUrl: null }, headers });
    expect(refused.status).toBe(400);
    const db = await getDb();
    const [after] = await db.select({ avatarUrl: users.avatarUrl }).from(users).where(eq(users.id, user.id));
    expect(after!.avatarUrl).not.toBeNull();
    const alone = await afterStep1();
    const taken = await call(updateProfileRoute, "PUT", "/api/v2/profile/update", { body: { avatarUrl: null }, headers: alone.headers });
    expect(taken.status).toBe(200);
  });

  it.skipIf(!onPostgres())(
    "POST /api/v2/couples judges the profile under the user's lock: a photo taken away meanwhile refuses it",
    async () => {
      const { user, headers } = await afterStep1();
      // A profile save holding the row that takes the photo away, committed once the creation waits on it.
      const [res] = await whileHeld(
        async (tx) => {
          await tx`select id from users where id = ${user.id} for update`;
          await tx`update users set avatar_url = null where id = ${user.id}`;
        },
        [() => postCouple(coupleBody(), headers)],
      );
      expect(res!.status).toBe(400);
      expect(res!.json.error.message).toBe("Please complete your individual profile first");
      expect(await couplesOf(user.id)).toHaveLength(0);
    },
  );
});

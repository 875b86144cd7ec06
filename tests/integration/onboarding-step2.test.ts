import { and, eq } from "drizzle-orm";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { GET as me } from "@/app/api/v2/auth/me/route";
import { getDb } from "@/db/client";
import { couples, locations } from "@/db/schema";
import { completeStep2 } from "@/lib/onboarding/service";
import { INTEREST_VALUES } from "@/lib/interests/catalogue";
import { failingDb } from "../support/failing-db";
import { call } from "../support/api";
import { LISBON, jpeg, signedIn, postStep1, postStep2, storedFiles, fileOfUrl, coupleLocationCount } from "../support/onboarding";

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
    expect(res.json).toEqual({
      success: true,
      data: { coupleId: expect.stringMatching(/^[0-9a-f-]{36}$/), profileCompletionPercentage: 100 },
    });

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

    const [place] = await db
      .select()
      .from(locations)
      .where(and(eq(locations.entityType, "couple"), eq(locations.entityId, couple!.id)));
    expect(place).toMatchObject({ placeId: LISBON, privacyLevel: "city", city: "Lisbon" });

    const current = await call(me, "GET", "/api/v2/auth/me", { headers: { cookie: headers.cookie } });
    expect(current.status).toBe(200);
    expect(current.json).toMatchObject({
      coupleId: couple!.id,
      coupleName: "Ada & Grace",
      coupleStatus: "active",
      partnerAVerified: true,
      isVisible: true,
    });
  });

  it("answers partner A's step 2 sent again (its answer lost, or finished in another tab) as the first save: nothing written twice", async () => {
    const { user, headers } = await afterStep1();
    const first = await postStep2(headers);
    expect(first.status).toBe(201);
    const before = await storedFiles();
    // The same form pressed again, then another tab's: another name, no main photo (refused on its own).
    for (const overrides of [{}, { couple_name: "Another", coupleProfileImage: undefined }]) {
      const again = await postStep2(headers, overrides);
      expect(again.status).toBe(201);
      expect(again.json).toEqual(first.json);
      // The session cookie comes again with the account's flags, as the lost answer carried it.
      expect(again.headers.get("set-cookie")).toBeTruthy();
    }
    const db = await getDb();
    const rows = await db.select({ coupleName: couples.coupleName }).from(couples).where(eq(couples.partner1Id, user.id));
    expect(rows).toEqual([{ coupleName: "Ada & Grace" }]);
    expect(await storedFiles()).toEqual(before);
  });

  it("answers two tries at once (a retry while the first runs) both as the couple one of them made, keeping only its photos", async () => {
    const { user, headers } = await afterStep1();
    const before = await storedFiles();
    const [one, two] = await Promise.all([postStep2(headers), postStep2(headers)]);
    expect([one.status, two.status]).toEqual([201, 201]);
    expect(two.json).toEqual(one.json);
    const db = await getDb();
    const rows = await db
      .select({ profileImageUrl: couples.profileImageUrl, photos: couples.photos })
      .from(couples)
      .where(eq(couples.partner1Id, user.id));
    expect(rows).toHaveLength(1);
    const kept = [rows[0]!.profileImageUrl!, ...rows[0]!.photos].map((url) => url.replace(/^\/api\/images\//, ""));
    // The other try's photos went with its failed write.
    expect((await storedFiles()).filter((file) => !before.includes(file))).toEqual(kept.sort());
  });

  it("refuses step 2 from partner B (not theirs) with 409 COUPLE_EXISTS naming their couple, and stores none of its photos", async () => {
    const a = await afterStep1();
    const coupleId = (await postStep2(a.headers)).json.data.coupleId as string;
    const b = await afterStep1();
    const db = await getDb();
    await db.update(couples).set({ partner2Id: b.user.id }).where(eq(couples.id, coupleId));
    const before = await storedFiles();
    const refused = await postStep2(b.headers, { couple_name: "Another" });
    expect(refused.status).toBe(409);
    expect(refused.json).toMatchObject({
      existingCoupleId: coupleId,
      error: { code: "COUPLE_EXISTS", message: "You already have a couple profile" },
    });
    expect(await db.select({ coupleName: couples.coupleName }).from(couples).where(eq(couples.id, coupleId))).toEqual([
      { coupleName: "Ada & Grace" },
    ]);
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
    [
      "four adventure styles",
      { "coupleTypes[]": ["global_adventurers", "culture_curators", "mindful_adventurers", "career_climbers"] },
      "Please select up to 3 adventure styles",
    ],
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

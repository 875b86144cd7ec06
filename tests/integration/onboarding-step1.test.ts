import path from "node:path";
import { and, eq } from "drizzle-orm";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { POST as step1 } from "@/app/api/onboarding/step1/route";
import { getDb } from "@/db/client";
import { locations, users } from "@/db/schema";
import { completeStep1 } from "@/lib/onboarding/service";
import { INTEREST_VALUES } from "@/lib/interests/catalogue";
import { gazetteerProvider } from "@/lib/places/gazetteer";
import { failingDb } from "../support/failing-db";
import { LISBON, PORTO, jpeg, post, signedIn, postStep1, storedFiles, fileOfUrl } from "../support/onboarding";

const uploads = process.env.STORAGE_DIR!;

describe("POST /api/onboarding/step1", () => {
  it("saves photo, occupation, interests and the resolved place, with a city-level location row", async () => {
    const { user, headers } = await signedIn();
    const res = await postStep1(headers, { occupation: "  Engineer  " });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      success: true,
      data: { occupation: "Engineer", isPartnerB: false, location: { placeId: LISBON, city: "Lisbon", countryCode: "PT" } },
    });

    const db = await getDb();
    const [row] = await db.select().from(users).where(eq(users.id, user.id));
    expect(row).toMatchObject({
      occupation: "Engineer",
      interests: INTEREST_VALUES.slice(0, 6),
      placeId: LISBON,
      city: "Lisbon",
      country: "Portugal",
      countryCode: "PT",
    });
    expect(row!.location).toContain("Lisbon");
    expect(row!.latitude).toBeCloseTo(38.7, 0);
    expect(row!.longitude).toBeCloseTo(-9.1, 0);
    expect(row!.avatarUrl).toBe(res.json.data.avatarUrl);

    const [place] = await db
      .select()
      .from(locations)
      .where(and(eq(locations.entityType, "user"), eq(locations.entityId, user.id)));
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

  it("keeps the photo another tab saved meanwhile when step 1 is saved without one", async () => {
    const { user, headers } = await signedIn();
    await postStep1(headers);
    let lookingUp!: () => void;
    const lookupStarted = new Promise<void>((resolve) => (lookingUp = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const places = {
      ...gazetteerProvider,
      details: async (placeId: string) => {
        lookingUp();
        await released;
        return gazetteerProvider.details(placeId);
      },
    };
    const db = await getDb();
    // This tab has read the profile, with its photo, and waits on the lookup of a newly chosen place...
    const withoutPhoto = completeStep1(
      db,
      user.id,
      { occupation: "Pilot", locationName: "Porto, Portugal", locationPlaceId: PORTO, interests: INTEREST_VALUES.slice(0, 6) },
      {},
      { places },
    );
    await lookupStarted;
    // ...while another tab saves a new photo, which removes the one read.
    const withPhoto = await postStep1(headers, { userImage: await jpeg(640, 480) });
    expect(withPhoto.status).toBe(200);
    release();
    expect((await withoutPhoto).avatarUrl).toBe(withPhoto.json.data.avatarUrl);

    const [row] = await db.select({ avatarUrl: users.avatarUrl }).from(users).where(eq(users.id, user.id));
    expect(row!.avatarUrl).toBe(withPhoto.json.data.avatarUrl);
    expect(await storedFiles()).toContain(path.relative(uploads, fileOfUrl(withPhoto.json.data.avatarUrl)));
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
    [
      "a corrupt JPEG",
      { userImage: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]) },
      "Please select a valid image file (JPEG, PNG, or WebP)",
    ],
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
    const json = await post(step1, "/api/onboarding/step1", JSON.stringify({ occupation: "x" }), {
      ...headers,
      "content-type": "application/json",
    });
    expect(json.status).toBe(400);
    expect(json.json.error.message).toBe("The request body must be multipart/form-data.");
    const broken = await post(step1, "/api/onboarding/step1", "garbage", {
      ...headers,
      "content-type": "multipart/form-data; boundary=nope",
    });
    expect(broken.status).toBe(400);
  });

  it("leaves neither a half profile nor the stored photo when the transaction fails", async () => {
    const { user } = await signedIn();
    const before = await storedFiles();
    const input = { occupation: "Engineer", locationName: "Lisbon", locationPlaceId: LISBON, interests: INTEREST_VALUES.slice(0, 5) };
    await expect(completeStep1(await failingDb(), user.id, input, { userImage: await jpeg() })).rejects.toThrow();
    const db = await getDb();
    const [row] = await db
      .select({ occupation: users.occupation, placeId: users.placeId, avatarUrl: users.avatarUrl })
      .from(users)
      .where(eq(users.id, user.id));
    expect(row).toEqual({ occupation: null, placeId: null, avatarUrl: null });
    expect(await db.select().from(locations).where(eq(locations.entityId, user.id))).toHaveLength(0);
    expect(await storedFiles()).toEqual(before);
  });
});

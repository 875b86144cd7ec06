import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { locations, users } from "@/db/schema";
import { updateCouple } from "@/lib/couples/service";
import { INTEREST_VALUES } from "@/lib/interests/catalogue";
import { failingDb } from "../support/failing-db";
import { apiSession, bearer } from "../support/flows";
import {
  LISBON,
  PORTO,
  NOT_STORED,
  ownImage,
  signedIn,
  afterStep1,
  coupleBody,
  postCouple,
  putCouple,
  putFallback,
  withCouple,
  coupleRow,
  coupleLocation,
  couplesOf,
  joinAsPartnerB,
  countingPlaces,
} from "../support/couples";

describe("POST /api/v2/couples", () => {
  it("creates the caller's couple, complete and discoverable, for a bearer client without CSRF", async () => {
    const { user } = await afterStep1();
    const session = await apiSession(user.email);
    const res = await postCouple(coupleBody(), bearer(session.access_token));
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      success: true,
      data: { partner1Id: user.id, coupleName: "Ada & Grace", placeId: LISBON, status: "active", partnerAVerified: true, isVisible: true },
    });
    expect(await coupleLocation(res.json.data.id)).toMatchObject({ placeId: LISBON, privacyLevel: "city" });
  });

  it("takes the helper variant (couple_name) and falls back to the step 1 place and interests", async () => {
    const { headers } = await afterStep1();
    const res = await postCouple(
      { couple_name: "Porto Pair", location: "ignored text", coupleTypes: ["career_climbers"], bio: "Two people, one espresso machine." },
      headers,
    );
    expect(res.status).toBe(201);
    expect(res.json.data).toMatchObject({
      coupleName: "Porto Pair",
      placeId: PORTO,
      location: "Porto, Portugal",
      interests: INTEREST_VALUES.slice(0, 6),
      photos: [],
      profileImageUrl: null,
    });
  });

  it("refuses a caller whose individual profile (step 1: photo, occupation, place) is not done, as step 2 does, creating no couple", async () => {
    const notStarted = await signedIn();
    const noPhoto = await afterStep1();
    const db = await getDb();
    await db.update(users).set({ avatarUrl: null }).where(eq(users.id, noPhoto.user.id));
    for (const { user, headers } of [notStarted, noPhoto]) {
      const res = await postCouple(coupleBody(), headers);
      expect(res.status).toBe(400);
      expect(res.json.error).toMatchObject({ code: "VALIDATION_ERROR", message: "Please complete your individual profile first" });
      expect(await couplesOf(user.id)).toHaveLength(0);
    }
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
    [
      "four adventure styles",
      { coupleTypes: ["global_adventurers", "culture_curators", "mindful_adventurers", "career_climbers"] },
      "coupleTypes",
      "Please select up to 3 adventure styles",
    ],
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
    expect(res.json.data).toMatchObject({
      id: coupleId,
      bio: "A brand new story about us.",
      coupleName: before!.coupleName,
      photos: before!.photos,
    });
    expect(await coupleRow(coupleId)).toMatchObject({ ...before, bio: "A brand new story about us.", updatedAt: expect.any(Date) });
  });

  it("moves the couple to a new place resolved on the server, keeping its privacy level", async () => {
    const { headers, coupleId } = await withCouple();
    const db = await getDb();
    await db.update(locations).set({ privacyLevel: "hidden" }).where(eq(locations.entityId, coupleId));
    const res = await putCouple(
      coupleId,
      { placeId: PORTO, location: "Client text", latitude: 1, longitude: 2, coupleTypes: ["mindful_adventurers"] },
      headers,
    );
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
    await expect(updateCouple(await getDb(), mine.user.id, target, { placeId: PORTO }, { places })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
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

import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as nearbyRoute } from "@/app/api/locations/nearby/route";
import { PUT as privacyRoute } from "@/app/api/locations/privacy/route";
import { getDb } from "@/db/client";
import { locations } from "@/db/schema";
import { privacyPreview } from "@/lib/couples/rules";
import { PRIVACY_LEVELS } from "@/lib/locations/privacy";
import { loadLocationSettings } from "@/lib/settings/queries";
import { call } from "../support/api";
import {
  coupleLocation,
  coupleRow,
  getProfile,
  joinAsPartnerB,
  putCouple,
  putFallback,
  signedIn,
  withCouple,
  type Headers,
} from "../support/couples";

const privacyCall = (body: unknown, headers: Headers) => call(privacyRoute, "PUT", "/api/locations/privacy", { body, headers });
/** The couples near Lisbon (where withCouple places them) that the viewer may see. */
const nearbyIds = async (headers: Headers) => {
  const res = await call(nearbyRoute, "GET", "/api/locations/nearby?lat=38.72&lng=-9.14&radius=50&limit=50", {
    headers: { cookie: headers.cookie! },
  });
  expect(res.status).toBe(200);
  return (res.json.data.locations as { entity_id: string }[]).map((row) => row.entity_id);
};

describe("PUT /api/v2/couples/{id} with {isVisible} ('Show us in the directory')", () => {
  it("hides the couple from other couples (full profile 404, not nearby) and shows it again", async () => {
    const mine = await withCouple();
    const viewer = await withCouple({ coupleName: "Viewers" });
    expect((await getProfile(mine.coupleId, viewer.headers)).status).toBe(200);
    expect((await nearbyIds(viewer.headers)).includes(mine.coupleId)).toBe(true);

    const off = await putCouple(mine.coupleId, { isVisible: false }, mine.headers);
    expect(off.status).toBe(200);
    expect(off.json.data).toMatchObject({ id: mine.coupleId, isVisible: false });
    expect((await coupleRow(mine.coupleId))!.isVisible).toBe(false);
    expect((await getProfile(mine.coupleId, viewer.headers)).status).toBe(404);
    expect((await nearbyIds(viewer.headers)).includes(mine.coupleId)).toBe(false);
    // The couple itself still sees its own profile.
    expect((await getProfile(mine.coupleId, mine.headers)).status).toBe(200);

    const on = await putCouple(mine.coupleId, { is_visible: true }, mine.headers);
    expect(on.status).toBe(200);
    expect((await getProfile(mine.coupleId, viewer.headers)).status).toBe(200);
  });

  it("lets partner B turn it off too", async () => {
    const { coupleId } = await withCouple();
    const b = await joinAsPartnerB(coupleId);
    expect((await putCouple(coupleId, { isVisible: false }, b.headers)).status).toBe(200);
    expect((await coupleRow(coupleId))!.isVisible).toBe(false);
  });

  it.each([
    ["a string", "false"],
    ["a number", 0],
    ["null", null],
  ])("refuses isVisible as %s with 400 and changes nothing", async (_case, value) => {
    const { headers, coupleId } = await withCouple();
    const res = await putCouple(coupleId, { isVisible: value }, headers);
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({ code: "VALIDATION_ERROR", message: "isVisible must be true or false" });
    expect((await coupleRow(coupleId))!.isVisible).toBe(true);
  });

  it("answers another couple's id with 404 and leaves that couple visible", async () => {
    const mine = await withCouple();
    const theirs = await withCouple({ coupleName: "Theirs" });
    const res = await putCouple(theirs.coupleId, { isVisible: false }, mine.headers);
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe("NOT_FOUND");
    expect((await coupleRow(theirs.coupleId))!.isVisible).toBe(true);
    expect((await coupleRow(mine.coupleId))!.isVisible).toBe(true);
  });

  it("refuses another couple's id named in the fallback's body too", async () => {
    const mine = await withCouple();
    const theirs = await withCouple({ coupleName: "Theirs" });
    expect((await putFallback({ id: theirs.coupleId, isVisible: false }, mine.headers)).status).toBe(404);
    expect((await coupleRow(theirs.coupleId))!.isVisible).toBe(true);
  });

  it("answers 401 without a session and 403 without the CSRF token", async () => {
    const { headers, coupleId } = await withCouple();
    expect((await putCouple(coupleId, { isVisible: false }, {})).status).toBe(401);
    expect((await putCouple(coupleId, { isVisible: false }, { cookie: headers.cookie! })).status).toBe(403);
    expect((await coupleRow(coupleId))!.isVisible).toBe(true);
  });
});

describe("the privacy level and its preview", () => {
  it("shows another couple exactly what the settings' preview promised, for every level", async () => {
    const mine = await withCouple();
    const viewer = await withCouple({ coupleName: "Viewers" });
    const db = await getDb();
    await db
      .update(locations)
      .set({ displayLocation: "Rua Augusta 24, Lisbon", city: "Lisbon", state: "Lisbon District", country: "Portugal" })
      .where(eq(locations.entityId, mine.coupleId));
    const { place } = await loadLocationSettings(db, mine.user.id);
    for (const level of PRIVACY_LEVELS) {
      const res = await privacyCall({ entity_type: "couple", entity_id: mine.coupleId, privacy_level: level }, mine.headers);
      expect(res.status).toBe(200);
      const seen = (await getProfile(mine.coupleId, viewer.headers)).json.data.location as string | null;
      expect(privacyPreview(place, level)).toBe(seen === null ? "Others see no location" : `Others see: ${seen}`);
    }
    expect(privacyPreview(place, "city")).toBe("Others see: Lisbon, Lisbon District, Portugal");
    expect(privacyPreview(place, "country")).toBe("Others see: Portugal");
  });

  it("refuses to set another couple's level and leaves it as it was", async () => {
    const mine = await withCouple();
    const theirs = await withCouple({ coupleName: "Theirs" });
    const res = await privacyCall({ entity_type: "couple", entity_id: theirs.coupleId, privacy_level: "full" }, mine.headers);
    expect(res.status).toBe(403);
    expect((await coupleLocation(theirs.coupleId))!.privacyLevel).toBe("city");
  });
});

describe("loadLocationSettings", () => {
  it("reads the caller's couple's place, level and visibility, for either partner", async () => {
    const { user, coupleId } = await withCouple();
    const b = await joinAsPartnerB(coupleId);
    const db = await getDb();
    for (const userId of [user.id, b.user.id]) {
      expect(await loadLocationSettings(db, userId)).toEqual({
        coupleId,
        isVisible: true,
        privacyLevel: "city",
        place: { placeId: "geonames:2267057", displayLocation: "Lisbon, Portugal", city: "Lisbon", state: null, country: "Portugal" },
      });
    }
  });

  it("answers NO_COUPLE for a person without a couple", async () => {
    const { user } = await signedIn();
    await expect(loadLocationSettings(await getDb(), user.id)).rejects.toMatchObject({ code: "NO_COUPLE" });
  });
});

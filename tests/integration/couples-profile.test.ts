import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as fullProfile } from "@/app/api/couples/[id]/full-profile/route";
import { getDb } from "@/db/client";
import { loadCoupleProfile, viewerCouple } from "@/lib/couples/queries";
import { directoryBand } from "@/lib/directory/rules";
import { distanceFromOwnKm } from "@/lib/locations/bands";
import { couples, locations, users } from "@/db/schema";
import { INTEREST_VALUES } from "@/lib/interests/catalogue";
import { call } from "../support/api";
import { signedIn, getProfile, withCouple, joinAsPartnerB } from "../support/couples";
import { forumCouple, LISBON, SINTRA } from "../support/forum";
import { block } from "../support/messages";
import { recordingStatements } from "../support/query-plan";
import { onPostgres } from "../support/test-database";

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
          interests: expect.arrayContaining([{ value: INTEREST_VALUES[2], label: expect.any(String), shared: expect.any(Boolean) }]),
          status: "active",
          badge: "Beta Member",
          isOwn: true,
          partners: [
            {
              id: user.id,
              role: "A",
              firstName: "Ada",
              lastName: "Lovelace",
              age: expect.any(Number),
              occupation: "Engineer",
              avatarUrl: user.avatarUrl,
              interests: expect.any(Array),
            },
            {
              id: b.user.id,
              role: "B",
              firstName: "Bea",
              lastName: "Byron",
              age: expect.any(Number),
              occupation: "Poet",
              avatarUrl: null,
              interests: expect.any(Array),
            },
          ],
        },
      });
      // The couple's interests are both partners' together; those both chose are marked shared.
      const { interests, partners } = res.json.data as {
        interests: { value: string; shared: boolean }[];
        partners: { interests: { value: string }[] }[];
      };
      const lists = partners.map((partner) => partner.interests.map((interest) => interest.value));
      expect(new Set(interests.map((interest) => interest.value))).toEqual(new Set(lists.flat()));
      for (const interest of interests) expect(interest.shared).toBe(lists.every((list) => list.includes(interest.value)));
    }
  });

  // Every level's text is the unit tests' (couples-rules); here, that the API applies the couple's own level.
  it.each([
    ["city", "Lisbon, Lisbon District, Portugal"],
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
    const other = await withCouple();
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

  it.skipIf(!onPostgres())(
    "reads another couple's profile in one statement, compared with the viewer's couple there; blocked either way or hidden, not found",
    async () => {
      const viewer = await forumCouple({ place: LISBON });
      const other = await forumCouple({ place: SINTRA });
      const db = await getDb();
      await db
        .update(users)
        .set({ interests: ["hiking", "cooking"] })
        .where(eq(users.id, viewer.a.userId));
      await db
        .update(users)
        .set({ interests: ["hiking", "music"] })
        .where(eq(users.id, other.b.userId));
      const { logging, logged } = recordingStatements(db);
      const profile = await loadCoupleProfile(logging, viewer.a.userId, other.coupleId);
      expect(logged).toHaveLength(1);
      expect(profile.distanceBand).toBe(
        directoryBand(
          distanceFromOwnKm((await viewerCouple(db, viewer.a.userId))!.place, {
            privacyLevel: "city",
            latitude: SINTRA.lat,
            longitude: SINTRA.lng,
          }),
        ),
      );
      expect(profile.distanceBand).not.toBeNull();
      expect(profile.interestsVenn?.shared).toEqual(["hiking"]);
      expect((await loadCoupleProfile(db, viewer.a.userId, viewer.coupleId)).interestsVenn, "none on one's own").toBeNull();

      expect((await block(viewer.coupleId, other.b.headers)).status).toBe(200);
      await expect(loadCoupleProfile(db, viewer.b.userId, other.coupleId)).rejects.toMatchObject({ code: "NOT_FOUND" });
      await expect(loadCoupleProfile(db, other.a.userId, viewer.coupleId)).rejects.toMatchObject({ code: "NOT_FOUND" });
      const third = await forumCouple({ place: LISBON });
      await db.update(couples).set({ isVisible: false }).where(eq(couples.id, third.coupleId));
      await expect(loadCoupleProfile(db, viewer.a.userId, third.coupleId)).rejects.toMatchObject({ code: "NOT_FOUND" });
    },
  );

  it.each(["not-a-uuid", "1; drop table couples", "%00"])("answers the malformed id %j with 404, not 500", async (id) => {
    const { headers } = await withCouple();
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

  it("is kept by no cache, another couple's profile as one's own: a shared computer's browser keeps no copy after sign-out", async () => {
    const { coupleId, headers } = await withCouple();
    const other = await withCouple();
    expect((await getProfile(coupleId, other.headers)).headers.get("cache-control")).toBe("private, no-store");
    expect((await getProfile(coupleId, headers)).headers.get("cache-control")).toBe("private, no-store");
  });

  it("loads the viewer's own couple when no id is given, and NOT_FOUND without one", async () => {
    const { user, coupleId } = await withCouple();
    const db = await getDb();
    expect(await loadCoupleProfile(db, user.id)).toMatchObject({ id: coupleId, isOwn: true });
    const { user: single } = await signedIn();
    await expect(loadCoupleProfile(db, single.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("answers a signed-in person without a couple 409 PROFILE_INCOMPLETE, as its page (/profile/{coupleId}) sends them to onboarding", async () => {
    const { coupleId } = await withCouple();
    const { headers } = await signedIn();
    const res = await getProfile(coupleId, headers);
    expect(res.status).toBe(409);
    expect(res.json.error.code).toBe("PROFILE_INCOMPLETE");
  });

  it("answers 401 without a session", async () => {
    const { coupleId } = await withCouple();
    const res = await call(fullProfile, "GET", `/api/couples/${coupleId}/full-profile`, { params: { id: coupleId } });
    expect(res.status).toBe(401);
  });
});

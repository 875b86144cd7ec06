import sharp from "sharp";
import { describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { normalizeLocation } from "@/lib/locations/service";
import { completeStep1 } from "@/lib/onboarding/service";
import { INTEREST_VALUES } from "@/lib/interests/catalogue";
import { gazetteerProvider } from "@/lib/places/gazetteer";
import { createUser, freshAddress } from "../support/api";

const LISBON = "geonames:2267057";
const PORTO = "geonames:2735943";

/** The offline places provider, counting the lookups made (each is billed with Google). */
function countingPlaces() {
  const details = vi.fn(gazetteerProvider.details);
  return { places: { ...gazetteerProvider, details }, details };
}

/** Storage that keeps nothing: these tests are about place lookups. */
const storage = { put: async (key: string) => ({ url: `/api/images/${key}` }), read: async () => null, delete: async () => {} };

const step1 = async (placeId: string) => ({
  fields: { occupation: "Engineer", locationName: "Somewhere", locationPlaceId: placeId, interests: INTEREST_VALUES.slice(0, 6) },
  images: {
    userImage: new Uint8Array(
      await sharp({ create: { width: 400, height: 400, channels: 3, background: "#336699" } })
        .jpeg()
        .toBuffer(),
    ),
  },
});

describe("step 1's place", () => {
  it("reuses the place chosen a moment ago and asks the provider only for a different one", async () => {
    const user = await createUser();
    const db = await getDb();
    const { places, details } = countingPlaces();
    await normalizeLocation(
      db,
      { placeId: LISBON, entityType: "user", entityId: user.id, privacyLevel: undefined },
      { userId: user.id },
      { clientAddress: freshAddress() },
      places,
    );
    expect(details).toHaveBeenCalledTimes(1);

    const chosen = await step1(LISBON);
    const saved = await completeStep1(db, user.id, chosen.fields, chosen.images, { places, storage });
    expect(details).toHaveBeenCalledTimes(1);
    expect(saved.location).toMatchObject({ placeId: LISBON, location: "Lisbon, Portugal", countryCode: "PT" });

    const other = await step1(PORTO);
    await completeStep1(db, user.id, other.fields, other.images, { places, storage });
    expect(details).toHaveBeenCalledTimes(2);
    expect(details).toHaveBeenLastCalledWith(PORTO);
  });
});

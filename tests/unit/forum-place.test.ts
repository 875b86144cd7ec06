import { describe, expect, it } from "vitest";
import { cityLevelPlace, LEVELS_SHOWING } from "@/lib/forum/place";
import type { PrivacyLevel, StoredLocation } from "@/lib/locations/privacy";

const lisbon = (privacyLevel: PrivacyLevel, overrides: Partial<StoredLocation> = {}): StoredLocation => ({
  id: "loc",
  placeId: "geonames:2267057",
  displayLocation: "Rua Augusta 1, Lisbon",
  latitude: 38.71234,
  longitude: -9.13987,
  city: "Lisbon",
  state: "Lisbon",
  country: "Portugal",
  privacyLevel,
  createdAt: new Date(0),
  updatedAt: new Date(0),
  ...overrides,
});

describe("cityLevelPlace (where a local post is)", () => {
  it("never keeps a point finer than the city: an exact place is snapped to the city grid and named by its city", () => {
    expect(cityLevelPlace(lisbon("full"))).toEqual({ place: "Lisbon, Portugal", latitude: 38.71, longitude: -9.14, placeLevel: "city" });
    expect(cityLevelPlace(lisbon("city"))).toEqual(cityLevelPlace(lisbon("full")));
  });

  it("keeps a coarser level as coarse as the couple chose", () => {
    expect(cityLevelPlace(lisbon("region"))).toEqual({ place: "Lisbon, Portugal", latitude: 39, longitude: -9, placeLevel: "region" });
  });

  it("has no place for country-level, hidden or point-less locations", () => {
    expect(cityLevelPlace(lisbon("country"))).toBeNull();
    expect(cityLevelPlace(lisbon("hidden"))).toBeNull();
    expect(cityLevelPlace(lisbon("city", { latitude: null }))).toBeNull();
    expect(cityLevelPlace(lisbon("city", { city: null, state: null, country: null }))).toBeNull();
  });

  it("shows a post's place at the levels as fine as it was posted at, never coarser", () => {
    expect(LEVELS_SHOWING.city).toEqual(["full", "city"]);
    expect(LEVELS_SHOWING.region).toEqual(["full", "city", "region"]);
  });
});

import { describe, expect, it } from "vitest";
import { PRIVACY_LEVELS, shapeLocation, shownCoordinates, snap, type PrivacyLevel, type StoredLocation } from "@/lib/locations/privacy";
import { nearbyQuerySchema, normalizeInputSchema, searchQuerySchema } from "@/lib/locations/schemas";

const stored = (privacyLevel: PrivacyLevel): StoredLocation => ({
  id: "0b8a6f3e-4a4f-4c55-9a51-2f4f0f6f0a01",
  placeId: "geonames:5391959",
  displayLocation: "San Francisco, California, United States",
  latitude: 37.77493,
  longitude: -122.41942,
  city: "San Francisco",
  state: "California",
  country: "United States",
  privacyLevel,
  createdAt: new Date("2025-01-02T03:04:05Z"),
  updatedAt: new Date("2025-01-02T03:04:05Z"),
});

describe("privacy shaping for others", () => {
  it("shows the exact place and coordinates only at 'full'", () => {
    expect(shapeLocation(stored("full"), "other")).toMatchObject({
      place_id: "geonames:5391959",
      display_location: "San Francisco, California, United States",
      display_coordinates: { lat: 37.77493, lng: -122.41942 },
      privacy_label: "Exact Location",
    });
  });

  it("at 'city' shows the city with coordinates on the 0.01° grid and no place id", () => {
    expect(shapeLocation(stored("city"), "other")).toMatchObject({
      place_id: null,
      display_location: "San Francisco, California, United States",
      display_coordinates: { lat: 37.77, lng: -122.42 },
      privacy_label: "City Level",
    });
  });

  it("at 'region' drops the city and snaps to whole degrees", () => {
    expect(shapeLocation(stored("region"), "other")).toMatchObject({
      place_id: null,
      display_location: "California, United States",
      display_coordinates: { lat: 38, lng: -122 },
    });
  });

  it("at 'country' shows the country and no coordinates", () => {
    expect(shapeLocation(stored("country"), "other")).toMatchObject({
      display_location: "United States",
      display_coordinates: null,
      place_id: null,
    });
  });

  it("gives nothing at all when hidden", () => {
    expect(shapeLocation(stored("hidden"), "other")).toBeNull();
  });

  it("never shows the chosen name below 'full', even when the place has no city, region or country", () => {
    const street = { ...stored("city"), displayLocation: "12 Rua Augusta, Lisbon", city: null, state: null, country: null };
    expect(shapeLocation(street, "other")?.display_location).toBe("");
  });

  it("falls back to the country at 'region' when the place has no region", () => {
    expect(shapeLocation({ ...stored("region"), state: null }, "other")?.display_location).toBe("United States");
  });
});

describe("privacy shaping for the owner", () => {
  it("keeps the chosen name and place id, but never exact coordinates below 'full'", () => {
    for (const level of PRIVACY_LEVELS) {
      const shaped = shapeLocation(stored(level), "own")!;
      expect(shaped.display_location).toBe("San Francisco, California, United States");
      expect(shaped.place_id).toBe("geonames:5391959");
      expect(shaped.display_coordinates).toEqual(shownCoordinates(level, 37.77493, -122.41942));
      if (level !== "full") expect(shaped.display_coordinates?.lat).not.toBe(37.77493);
    }
    expect(shapeLocation(stored("hidden"), "own")?.display_coordinates).toBeNull();
  });
});

describe("snap", () => {
  it("rounds halves up the same way the nearby SQL does", () => {
    expect(snap(-9.13333, 100)).toBe(-9.13);
    expect(snap(0.125, 100)).toBe(0.13);
    expect(snap(-0.5, 1)).toBe(0);
    expect(snap(179.996, 100)).toBe(180);
  });
});

describe("location input schemas", () => {
  it("trims the search query and applies the default and maximum limit", () => {
    expect(searchQuerySchema.parse({ query: "  lisb  " })).toEqual({ query: "lisb", limit: 5 });
    expect(searchQuerySchema.parse({})).toEqual({ query: "", limit: 5 });
    expect(searchQuerySchema.safeParse({ query: "x", limit: "11" }).error?.issues[0]?.message).toBe("limit must be between 1 and 10");
    expect(searchQuerySchema.safeParse({ query: "x", limit: "two" }).error?.issues[0]?.message).toBe("limit must be a number");
  });

  it("requires lat and lng for nearby and defaults radius 50 and limit 20", () => {
    expect(nearbyQuerySchema.parse({ lat: "38.7", lng: "-9.1" })).toEqual({ lat: 38.7, lng: -9.1, radius: 50, limit: 20 });
    expect(nearbyQuerySchema.safeParse({ lng: "1" }).error?.issues[0]?.message).toBe("lat is required");
    expect(nearbyQuerySchema.safeParse({ lat: "91", lng: "0" }).error?.issues[0]?.message).toBe("lat must be between -90 and 90");
    expect(nearbyQuerySchema.safeParse({ lat: "0", lng: "0", limit: "51" }).error?.issues[0]?.message).toBe(
      "limit must be between 1 and 50",
    );
  });

  it("leaves the privacy level out when none is sent (a new location gets 'city', an existing one keeps its own)", () => {
    const parsed = normalizeInputSchema.parse({
      place_id: " geonames:1 ",
      entity_type: "user",
      entity_id: "0b8a6f3e-4a4f-4c55-9a51-2f4f0f6f0a01",
    });
    expect(parsed).toEqual({
      placeId: "geonames:1",
      entityType: "user",
      entityId: "0b8a6f3e-4a4f-4c55-9a51-2f4f0f6f0a01",
      privacyLevel: undefined,
    });
    expect(
      normalizeInputSchema.parse({
        place_id: "geonames:1",
        entity_type: "user",
        entity_id: "0b8a6f3e-4a4f-4c55-9a51-2f4f0f6f0a01",
        privacy_level: "region",
      }).privacyLevel,
    ).toBe("region");
  });
});

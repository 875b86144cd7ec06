import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { NormalizedLocation } from "@/lib/locations/privacy";
import {
  clearSavedLocation,
  loadSavedLocation,
  LocationStorageError,
  onboardingLocationKey,
  registrationLocationKey,
  SAVED_LOCATION_TTL_MS,
  saveLocation,
  toOnboardingLocation,
  type OnboardingLocation,
} from "@/lib/locations/client/saved-location";
import type { Prediction } from "@/lib/places/types";
import { MemoryStorage, RefusingStorage } from "@/tests/support/memory-storage";

const lisbon: OnboardingLocation = {
  location: "Lisbon, Lisbon, Portugal",
  placeId: "geonames:2267057",
  latitude: 38.72,
  longitude: -9.13,
  city: "Lisbon",
  country: "Portugal",
  privacyLevel: "city",
};
const porto: OnboardingLocation = { location: "Porto, Portugal", placeId: "geonames:2735943" };

describe("saved onboarding location", () => {
  let storage: MemoryStorage;
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date("2026-03-01T12:00:00Z"));
    storage = new MemoryStorage();
  });
  afterEach(() => vi.useRealTimers());

  it("is kept per user with a timestamp and version '1.0'", () => {
    saveLocation("u1", lisbon, storage);
    expect(JSON.parse(storage.getItem("onboardingLocation:u1")!)).toEqual({ ...lisbon, timestamp: Date.now(), version: "1.0" });
    expect(loadSavedLocation("u1", storage)).toEqual(lisbon);
    expect(loadSavedLocation("u2", storage)).toBeNull();
  });

  it("prefers the registration location and moves it into onboarding storage", () => {
    saveLocation("u1", porto, storage);
    storage.setItem(registrationLocationKey("u1"), JSON.stringify({ ...lisbon, timestamp: Date.now(), version: "1.0" }));
    vi.advanceTimersByTime(60_000);

    expect(loadSavedLocation("u1", storage)).toEqual(lisbon);
    expect(storage.getItem(registrationLocationKey("u1"))).toBeNull();
    // Moved, not renewed: it still expires 24 hours after it was chosen.
    expect(JSON.parse(storage.getItem(onboardingLocationKey("u1"))!)).toEqual({
      ...lisbon,
      timestamp: Date.now() - 60_000,
      version: "1.0",
    });
    expect(loadSavedLocation("u1", storage)).toEqual(lisbon);
  });

  it("falls back to the onboarding location when the registration one is unusable, and removes it", () => {
    saveLocation("u1", porto, storage);
    storage.setItem(registrationLocationKey("u1"), JSON.stringify({ location: "Somewhere", timestamp: Date.now() }));
    expect(loadSavedLocation("u1", storage)).toEqual(porto);
    expect(storage.getItem(registrationLocationKey("u1"))).toBeNull();
  });

  it("expires after 24 hours and is then removed", () => {
    saveLocation("u1", lisbon, storage);
    vi.advanceTimersByTime(SAVED_LOCATION_TTL_MS - 1);
    expect(loadSavedLocation("u1", storage)).toEqual(lisbon);
    vi.advanceTimersByTime(1);
    expect(loadSavedLocation("u1", storage)).toBeNull();
    expect(storage.getItem(onboardingLocationKey("u1"))).toBeNull();
  });

  it.each([
    ["no place id", { location: "Lisbon" }],
    ["a blank place id", { location: "Lisbon", placeId: " " }],
    ["no location text", { placeId: "geonames:1" }],
    ["an unknown privacy level", { location: "Lisbon", placeId: "geonames:1", privacyLevel: "secret" }],
  ])("is refused and removed with %s", (_, saved) => {
    storage.setItem(onboardingLocationKey("u1"), JSON.stringify({ ...saved, timestamp: Date.now(), version: "1.0" }));
    expect(loadSavedLocation("u1", storage)).toBeNull();
    expect(storage.getItem(onboardingLocationKey("u1"))).toBeNull();
  });

  it("is refused and removed without a timestamp or when it is not JSON", () => {
    for (const raw of [JSON.stringify({ location: "Lisbon", placeId: "geonames:1" }), "{oops"]) {
      storage.setItem(onboardingLocationKey("u1"), raw);
      expect(loadSavedLocation("u1", storage)).toBeNull();
      expect(storage.getItem(onboardingLocationKey("u1"))).toBeNull();
    }
  });

  it("is cleared by Change, and only for that user", () => {
    saveLocation("u1", lisbon, storage);
    saveLocation("u2", porto, storage);
    clearSavedLocation("u1", storage);
    expect(loadSavedLocation("u1", storage)).toBeNull();
    expect(loadSavedLocation("u2", storage)).toEqual(porto);
  });

  it("reports a full or refused storage with the spec's text", () => {
    expect(() => saveLocation("u1", lisbon, new MemoryStorage(10))).toThrow(LocationStorageError);
    expect(() => saveLocation("u1", lisbon, new RefusingStorage())).toThrow(
      "Unable to save location data. Please check your browser settings and try again.",
    );
    expect(() => saveLocation("u1", lisbon, null)).toThrow(LocationStorageError);
  });

  it("reads nothing from storage the browser refuses", () => {
    expect(loadSavedLocation("u1", new RefusingStorage())).toBeNull();
    expect(loadSavedLocation("u1", null)).toBeNull();
    expect(() => clearSavedLocation("u1", new RefusingStorage())).not.toThrow();
  });
});

describe("a chosen suggestion as onboarding location", () => {
  const prediction: Prediction = {
    place_id: "geonames:2267057",
    description: "Lisbon, Lisbon, Portugal",
    structured_formatting: { main_text: "Lisbon", secondary_text: "Lisbon, Portugal" },
  };
  const normalized: NormalizedLocation = {
    id: "5d3c8f0e-4c44-4b39-a7a4-6f0c6d3d2a11",
    place_id: "geonames:2267057",
    display_location: "Lisbon, Lisbon, Portugal",
    display_coordinates: { lat: 38.72, lng: -9.13 },
    privacy_level: "city",
    privacy_label: "City Level",
    created_at: "2026-03-01T12:00:00.000Z",
    updated_at: "2026-03-01T12:00:00.000Z",
  };

  it("takes the server's answer, with city, region and country from the suggestion", () => {
    expect(toOnboardingLocation(prediction, normalized)).toEqual({
      location: "Lisbon, Lisbon, Portugal",
      placeId: "geonames:2267057",
      latitude: 38.72,
      longitude: -9.13,
      city: "Lisbon",
      state: "Lisbon",
      country: "Portugal",
      privacyLevel: "city",
    });
  });

  it("reads a suggestion without a region", () => {
    const paris = { ...prediction, structured_formatting: { main_text: "Paris", secondary_text: "France" } };
    expect(toOnboardingLocation(paris, { ...normalized, display_coordinates: null })).toMatchObject({
      city: "Paris",
      state: undefined,
      country: "France",
    });
    expect(toOnboardingLocation(paris, { ...normalized, display_coordinates: null })).not.toHaveProperty("latitude");
  });
});

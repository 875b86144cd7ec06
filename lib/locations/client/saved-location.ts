/**
 * The onboarding location in the browser (spec sections 3 and 4): where it is kept between
 * reloads, and how a chosen suggestion becomes one. Browser-safe; Storage is passed in by tests.
 */
import "client-only";
import type { NormalizedLocation, PrivacyLevel } from "@/lib/locations/privacy";
import type { Prediction } from "@/lib/places/types";
import { savedLocationSchema } from "./storage-schemas";

/** The onboarding location (spec section 3), as kept in session storage with timestamp and version '1.0'. */
export type OnboardingLocation = {
  location: string;
  placeId: string;
  latitude?: number;
  longitude?: number;
  city?: string;
  state?: string;
  country?: string;
  countryCode?: string;
  privacyLevel?: PrivacyLevel;
};

export const SAVED_LOCATION_VERSION = "1.0";
export const SAVED_LOCATION_TTL_MS = 24 * 60 * 60 * 1000;

export const registrationLocationKey = (userId: string) => `registrationLocation:${userId}`;
export const onboardingLocationKey = (userId: string) => `onboardingLocation:${userId}`;

/** Thrown when the browser refuses to keep the location (spec's SESSION_STORAGE_FAILED). */
export class LocationStorageError extends Error {
  readonly code = "SESSION_STORAGE_FAILED";
  constructor() {
    super("Unable to save location data. Please check your browser settings and try again.");
    this.name = "LocationStorageError";
  }
}

/** Spec section 8: the chosen place could not be saved; the typed text stays for another try. */
export const SAVE_LOCATION_FAILED = "Failed to save location. Please try again.";

function defaultStorage(): Storage | null {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    return null;
  }
}

/** A usable saved location, or null; anything expired or malformed is removed on the way. */
function takeValid(storage: Storage, key: string): { location: OnboardingLocation; timestamp: number } | null {
  const raw = storage.getItem(key);
  if (raw === null) return null;
  let parsed;
  try {
    parsed = savedLocationSchema.safeParse(JSON.parse(raw));
  } catch {
    parsed = null;
  }
  if (!parsed?.success || Date.now() - parsed.data.timestamp >= SAVED_LOCATION_TTL_MS) {
    storage.removeItem(key);
    return null;
  }
  const { timestamp, ...location } = parsed.data;
  return { location, timestamp };
}

function write(storage: Storage, userId: string, location: OnboardingLocation, timestamp: number): void {
  try {
    storage.setItem(onboardingLocationKey(userId), JSON.stringify({ ...location, timestamp, version: SAVED_LOCATION_VERSION }));
  } catch {
    throw new LocationStorageError();
  }
}

/**
 * Spec section 4, location source order: the location chosen at registration (moved into
 * onboarding storage, keeping its age), else the saved onboarding location, else none.
 */
export function loadSavedLocation(userId: string, storage: Storage | null = defaultStorage()): OnboardingLocation | null {
  if (!storage) return null;
  try {
    const fromRegistration = takeValid(storage, registrationLocationKey(userId));
    if (fromRegistration) {
      storage.removeItem(registrationLocationKey(userId));
      write(storage, userId, fromRegistration.location, fromRegistration.timestamp);
      return fromRegistration.location;
    }
    return takeValid(storage, onboardingLocationKey(userId))?.location ?? null;
  } catch {
    // Storage that refuses reads has nothing saved for us; the user simply chooses again.
    return null;
  }
}

/** Keeps a confirmed location for 24 hours; throws LocationStorageError when the browser refuses. */
export function saveLocation(userId: string, location: OnboardingLocation, storage: Storage | null = defaultStorage()): void {
  if (!storage) throw new LocationStorageError();
  write(storage, userId, location, Date.now());
}

export function clearSavedLocation(userId: string, storage: Storage | null = defaultStorage()): void {
  try {
    storage?.removeItem(onboardingLocationKey(userId));
  } catch {
    // Nothing readable was kept there either.
  }
}

/** "Lisbon" + "Lisbon, Portugal": the last part of the secondary text is the country, what is between is the region. */
function placeParts(prediction: Prediction): Pick<OnboardingLocation, "city" | "state" | "country"> {
  const parts = prediction.structured_formatting.secondary_text
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
  const city = prediction.structured_formatting.main_text.trim() || undefined;
  const country = parts.at(-1);
  const state = parts.length > 1 ? parts.slice(0, -1).join(", ") : undefined;
  return { city, state, country };
}

/** The record shown and kept once the server confirmed the chosen suggestion. */
export function toOnboardingLocation(prediction: Prediction, normalized: NormalizedLocation): OnboardingLocation {
  return {
    location: normalized.display_location || prediction.description,
    placeId: normalized.place_id ?? prediction.place_id,
    ...(normalized.display_coordinates && { latitude: normalized.display_coordinates.lat, longitude: normalized.display_coordinates.lng }),
    ...placeParts(prediction),
    privacyLevel: normalized.privacy_level,
  };
}

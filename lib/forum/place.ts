/**
 * Where a local post is, in the forum's terms: pure, so the server, the seed and unit tests share it.
 */
import { PRIVACY_LEVELS, SNAP_STEPS, shownName, snap, type ListedPlace, type PrivacyLevel } from "@/lib/locations/privacy";

/** How fine a local post's place is: its couple's level when it was posted, never finer than the city. */
export type ForumPlaceLevel = "city" | "region";

/** A local post's place: the couple's place as others see it, never finer than the city. */
export type ForumPlace = { place: string; latitude: number; longitude: number; placeLevel: ForumPlaceLevel };

/** Finer than the city is snapped to the city grid (lib/locations/privacy.ts); country and hidden have no point. */
const CITY_AT_MOST: Record<PrivacyLevel, ForumPlaceLevel | null> = {
  full: "city",
  city: "city",
  region: "region",
  country: null,
  hidden: null,
};

export function cityLevelPlace(location: ListedPlace): ForumPlace | null {
  const level = CITY_AT_MOST[location.privacyLevel];
  if (!level || location.latitude === null || location.longitude === null) return null;
  const place = shownName({ ...location, privacyLevel: level });
  if (!place) return null;
  const steps = SNAP_STEPS[level]!;
  return { place, latitude: snap(location.latitude, steps), longitude: snap(location.longitude, steps), placeLevel: level };
}

/**
 * The privacy levels at which a couple still shows a post's place to others: those that show it
 * at least as finely as when it was posted. A couple that coarsens (city to region) takes its
 * city-level posts' place away, as hiding it does.
 */
export const LEVELS_SHOWING: Record<ForumPlaceLevel, readonly PrivacyLevel[]> = {
  city: PRIVACY_LEVELS.filter((level) => CITY_AT_MOST[level] === "city"),
  region: PRIVACY_LEVELS.filter((level) => CITY_AT_MOST[level] !== null),
};

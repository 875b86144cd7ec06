/**
 * Where a local post is, in the forum's terms: pure, so the server, the seed and unit tests share it.
 */
import { PRIVACY_LEVELS, SNAP_STEPS, shownName, snap, type PrivacyLevel, type StoredLocation } from "@/lib/locations/privacy";

/** A local post's place: the couple's place as others see it, never finer than the city. */
export type ForumPlace = { place: string; latitude: number; longitude: number };

/** Finer than the city is snapped to the city grid (lib/locations/privacy.ts); country and hidden have no point. */
const CITY_AT_MOST: Record<PrivacyLevel, Exclude<PrivacyLevel, "full">> = {
  full: "city",
  city: "city",
  region: "region",
  country: "country",
  hidden: "hidden",
};

export function cityLevelPlace(location: StoredLocation): ForumPlace | null {
  const level = CITY_AT_MOST[location.privacyLevel];
  const steps = SNAP_STEPS[level];
  if (!steps || location.latitude === null || location.longitude === null) return null;
  const place = shownName({ ...location, privacyLevel: level });
  if (!place) return null;
  return { place, latitude: snap(location.latitude, steps), longitude: snap(location.longitude, steps) };
}

/** The privacy levels at which a couple shows a place for the local forum (cityLevelPlace has a point for them). */
export const LEVELS_WITH_A_PLACE: readonly PrivacyLevel[] = PRIVACY_LEVELS.filter((level) => SNAP_STEPS[CITY_AT_MOST[level]] != null);

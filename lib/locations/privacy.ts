/**
 * What a location looks like from outside, per privacy level. Pure, so every read (one
 * location, the owner's own answer, nearby) shapes the same way. Exact coordinates leave the
 * server only for 'full'; coarser levels are snapped to a grid (city: 0.01° ≈ 1 km, region:
 * 1° ≈ 100 km) or dropped (country, hidden).
 */
import type { Viewer } from "@/lib/safety/visibility";
import { placeName } from "./place-name";

export const PRIVACY_LEVELS = ["full", "city", "region", "country", "hidden"] as const;
export type PrivacyLevel = (typeof PRIVACY_LEVELS)[number];

export const PRIVACY_LABELS: Record<PrivacyLevel, string> = {
  full: "Exact Location",
  city: "City Level",
  region: "Region Level",
  country: "Country Level",
  hidden: "Hidden",
};

export const DEFAULT_PRIVACY_LEVEL: PrivacyLevel = "city";

/** Grid steps per degree; null means no coordinates at all. 'full' is handled apart (exact). */
export const SNAP_STEPS: Record<Exclude<PrivacyLevel, "full">, number | null> = { city: 100, region: 1, country: null, hidden: null };

/**
 * floor(x * steps + 0.5) / steps, in plain double arithmetic: the SQL of `nearby` computes the
 * very same expression, so a place shows the same coordinates in every answer.
 */
export const snap = (value: number, steps: number) => Math.floor(value * steps + 0.5) / steps;

export function shownCoordinates(level: PrivacyLevel, lat: number | null, lng: number | null): { lat: number; lng: number } | null {
  if (lat === null || lng === null) return null;
  if (level === "full") return { lat, lng };
  const steps = SNAP_STEPS[level];
  return steps === null ? null : { lat: snap(lat, steps), lng: snap(lng, steps) };
}

/**
 * Where a couple's own distances are measured from: their own place as stored, whatever its
 * level, since a level decides what others see, never where one stands. Only a place that shows
 * a point at all (not hidden, not country-level) measures distances, so no couple reads
 * distances to others while keeping its own from them.
 */
export function ownCentre(level: PrivacyLevel, lat: number | null, lng: number | null): { lat: number; lng: number } | null {
  return shownCoordinates(level, lat, lng) && lat !== null && lng !== null ? { lat, lng } : null;
}

/**
 * What a level shows of the point, for the settings' preview: how far the shown point may be from
 * the place (the grid's half-step on both axes: 0.005° is under 1 km, 0.5° under 80 km), or none.
 */
export const POINT_PREVIEWS: Record<PrivacyLevel, string> = {
  full: "On the map and in distances: your exact place.",
  city: "On the map and in distances: a point within 1 km of your place.",
  region: "On the map and in distances: a point within 80 km of your place.",
  country: "Not on the map, and no distance to you.",
  hidden: "Not on the map, and no distance to you.",
};

export type StoredLocation = {
  id: string;
  placeId: string;
  displayLocation: string;
  latitude: number | null;
  longitude: number | null;
  city: string | null;
  state: string | null;
  country: string | null;
  privacyLevel: PrivacyLevel;
  createdAt: Date;
  updatedAt: Date;
};

/** A couple's place as a list reads it (`listedPlaceColumns`): its name at each level and its point, never its place id or times. */
export type ListedPlace = Pick<
  StoredLocation,
  "id" | "displayLocation" | "latitude" | "longitude" | "city" | "state" | "country" | "privacyLevel"
>;

/** The spec's normalized location. */
export type NormalizedLocation = {
  id: string;
  /** Only for the owner or at 'full': a place id names the exact place. */
  place_id: string | null;
  display_location: string;
  display_coordinates: { lat: number; lng: number } | null;
  privacy_level: PrivacyLevel;
  privacy_label: string;
  created_at: string;
  updated_at: string;
};

/** What the shown name is made of: the chosen place's name, its parts, and the level. */
export type NamedPlace = Pick<StoredLocation, "displayLocation" | "city" | "state" | "country" | "privacyLevel">;

/** The name others see: the chosen place at 'full', then city, region or country only. */
export function shownName(location: NamedPlace): string {
  const { city, state, country, displayLocation } = location;
  switch (location.privacyLevel) {
    case "full":
      return placeName(displayLocation);
    case "city":
      // Never the chosen name itself: with Google it can be a street address.
      return placeName(city, state, country);
    case "region":
      return placeName(state, country);
    case "country":
    case "hidden":
      return placeName(country);
  }
}

/**
 * Its own (the person, or the couple's partners) see the name they chose, with coordinates as
 * coarse as their level; another viewer (lib/safety/visibility.ts) sees only what the level
 * allows, and nothing at all when it is hidden.
 */
export function shapeLocation(location: StoredLocation, viewer: Viewer): NormalizedLocation | null {
  const level = location.privacyLevel;
  if (viewer === "other" && level === "hidden") return null;
  return {
    id: location.id,
    place_id: viewer === "own" || level === "full" ? location.placeId : null,
    display_location: viewer === "own" ? placeName(location.displayLocation) : shownName(location),
    display_coordinates: shownCoordinates(level, location.latitude, location.longitude),
    privacy_level: level,
    privacy_label: PRIVACY_LABELS[level],
    created_at: location.createdAt.toISOString(),
    updated_at: location.updatedAt.toISOString(),
  };
}

/**
 * Distance bands: what a list shows instead of a distance (the forum's local posts, the
 * directory's couples). One rule for both, over each list's own radii. Pure and browser-safe.
 * Distances are always measured between shown (snapped) coordinates, so a band never says more
 * than the privacy level already does.
 */
import { ownCentre, shownCoordinates, type PrivacyLevel } from "./privacy";

const EARTH_RADIUS_KM = 6371.0088;

/** The directory's distance filter and discover's scoring bands between two couples. */
export const COUPLE_RADII_KM = [10, 25, 50, 100, 200] as const;

/**
 * The bands a distance between two couples is named by (the directory's cards, a profile,
 * discover, the dashboard): fine near by, coarse far away, and every distance on Earth has one,
 * so no card says 'further away' where a band would say how far.
 */
export const COUPLE_BANDS_KM = [10, 25, 50, 100, 200, 500, 1000, 2500, 5000] as const;
export const BEYOND_COUPLE_BANDS = "More than 5,000 km";

/**
 * The band of a distance: `{within} {r} km` for the smallest radius it lies within, `beyond` past
 * the largest (null: the list never shows such a row), null for a value that is not a distance.
 */
export function bandOf(distanceKm: number, radii: readonly number[], beyond: string | null, within = "within"): string | null {
  if (!Number.isFinite(distanceKm) || distanceKm < 0) return null;
  const radius = radii.find((km) => distanceKm <= km);
  return radius === undefined ? beyond : `${within} ${radius.toLocaleString("en")} km`;
}

/** 'Within 10 km' ... 'Within 5,000 km', 'More than 5,000 km': the band between two couples. */
export const coupleBand = (distanceKm: number): string | null => bandOf(distanceKm, COUPLE_BANDS_KM, BEYOND_COUPLE_BANDS, "Within");

/** Great-circle distance in km (the same haversine as the SQL of nearby and the forum). */
export function haversineKm(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const rad = (deg: number) => (deg * Math.PI) / 180;
  const h = Math.sin(rad(b.lat - a.lat) / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(rad(b.lng - a.lng) / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

export type PlacePoint = { privacyLevel: PrivacyLevel; latitude: number | null; longitude: number | null };

/**
 * The distance in km from the viewer's own place (ownCentre: where they stand) to another's place
 * as its privacy level shows it; null when either has no shown point (hidden, country-level, or no
 * coordinates).
 */
export function distanceFromOwnKm(own: PlacePoint | null, other: PlacePoint | null): number | null {
  const from = own && ownCentre(own.privacyLevel, own.latitude, own.longitude);
  const to = other && shownCoordinates(other.privacyLevel, other.latitude, other.longitude);
  return from && to ? haversineKm(from, to) : null;
}

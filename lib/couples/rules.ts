/**
 * Couple rules (spec sections 3 and 4): adventure styles, badges, visibility. Pure and
 * browser-safe, so the forms, the profile page and the server share them.
 */
import { shownName, type StoredLocation } from "@/lib/locations/privacy";

export const COUPLE_TYPES_MAX = 3;

/** The six current adventure styles (spec section 3), in display order. */
export const COUPLE_TYPES = [
  { value: "global_adventurers", label: "Global Adventurers" },
  { value: "culture_curators", label: "Culture Curators" },
  { value: "mindful_adventurers", label: "Mindful Adventurers" },
  { value: "community_connectors", label: "Community Connectors" },
  { value: "culinary_connoisseurs", label: "Culinary Connoisseurs" },
  { value: "career_climbers", label: "Career Climbers" },
] as const;
export type CoupleType = (typeof COUPLE_TYPES)[number]["value"];
export const COUPLE_TYPE_VALUES: readonly string[] = COUPLE_TYPES.map((type) => type.value);

/** Keeps only current values, once each, in the order given: what a restored draft may show. */
export const currentCoupleTypes = (values: readonly string[]): CoupleType[] =>
  [...new Set(values)].filter((value): value is CoupleType => COUPLE_TYPE_VALUES.includes(value));

export type CoupleBadge = "Verified Couple" | "Beta Member";

export type BadgeFacts = { status: string; partnerAVerified: boolean; partnerBVerified: boolean };

/** Spec: the verified badge when the couple is active and both partners are verified. */
export function coupleBadge({ status, partnerAVerified, partnerBVerified }: BadgeFacts): CoupleBadge {
  return status === "active" && partnerAVerified && partnerBVerified ? "Verified Couple" : "Beta Member";
}

/**
 * Whether people outside the couple may see it: active (the spec's "discoverable") and not
 * hidden by its visibility flag, which partner A's completion turns on.
 */
export function isDiscoverable({ status, isVisible }: { status: string; isVisible: boolean }): boolean {
  return status === "active" && isVisible;
}

/**
 * The location text a viewer may see. The partners see the place they chose; anyone else sees
 * it at the couple's privacy level (full: the place; city: city, region, country; region:
 * region and country; country: the country; hidden: nothing). Without a stored location
 * others see nothing: there is no level to apply to a bare text.
 */
export function shownCoupleLocation(location: StoredLocation | null, viewer: "own" | "other", ownText: string | null): string | null {
  if (viewer === "own") return location?.displayLocation ?? ownText;
  if (!location || location.privacyLevel === "hidden") return null;
  return shownName(location) || null;
}

/**
 * Couple rules (spec sections 3 and 4): pure and browser-safe, so the profile page and the
 * server derive badges and visibility the same way.
 */
import { shownName, type StoredLocation } from "@/lib/locations/privacy";

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

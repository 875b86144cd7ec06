/**
 * Couple rules (spec sections 3, 4 and 5): the couple's field limits and messages, adventure
 * styles, the bio counter, badges, the place as others see it. Pure and browser-safe, so the
 * forms (onboarding now, settings later), the profile page and the server share one copy. Who may
 * see a couple at all is lib/safety/visibility.ts.
 */
import { placeName } from "@/lib/locations/place-name";
import { shownName, type NamedPlace } from "@/lib/locations/privacy";
import type { Viewer } from "@/lib/safety/visibility";

export const COUPLE_NAME_MAX = 100;
export const COUPLE_TYPES_MAX = 3;
export const BIO_MIN = 10;
export const BIO_MAX = 1000;
/** Photos besides the main one. */
export const EXTRA_PHOTOS_MAX = 5;
/** The largest JSON a couple's create or update takes: the bio at three UTF-8 bytes a character, six photo URLs, its lists (about 17 kB). */
export const COUPLE_REQUEST_BYTES = 32_000;

export const COUPLE_MESSAGES = {
  /** A couple save that failed without a message of the server's (spec section 8). */
  updateFailed: "Failed to update couple",
  coupleNameRequired: "Please enter your couple name",
  coupleNameTooLong: `Couple name must be no more than ${COUPLE_NAME_MAX} characters`,
  coupleNameControl: "Couple name cannot contain line breaks or control characters",
  mainPhotoRequired: "Please upload a main couple photo",
  coupleTypesTooFew: "Please select at least one adventure style",
  coupleTypesTooMany: `Please select up to ${COUPLE_TYPES_MAX} adventure styles`,
  coupleTypeUnknown: "Please select adventure styles from the list",
  bioTooShort: `Please share more about yourselves (at least ${BIO_MIN} characters)`,
  bioTooLong: `Bio is too long (maximum ${BIO_MAX} characters)`,
  bioNotAllowed: "Bio contains characters that are not allowed",
  individualProfileFirst: "Please complete your individual profile first",
} as const;

export const tooManyPhotosMessage = (count: number) => `You can only upload up to ${EXTRA_PHOTOS_MAX} photos. You currently have ${count}.`;

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

/** The spec names the styles but not their descriptions; these are ours (onboarding's picker, the couple profile). */
export const COUPLE_TYPE_DESCRIPTIONS: Record<CoupleType, string> = {
  global_adventurers: "Passports always ready: you plan the year around the next trip abroad.",
  culture_curators: "Museums, theatre, galleries and live music fill your calendar.",
  mindful_adventurers: "Slow travel, retreats and time in nature keep you both grounded.",
  community_connectors: "You host the dinners, join the clubs and bring people together.",
  culinary_connoisseurs: "New restaurants, cooking classes and wine regions guide your plans.",
  career_climbers: "Ambitious together: you back each other's goals and love to talk shop.",
};

/** Keeps only current values, once each, in the order given: what a restored draft may show. */
export const currentCoupleTypes = (values: readonly string[]): CoupleType[] =>
  [...new Set(values)].filter((value): value is CoupleType => COUPLE_TYPE_VALUES.includes(value));

export type CoupleBadge = "Verified Couple" | "Beta Member";

/** What a badge means, said where it is shown: it never promises an identity check nobody made. */
export const BADGE_MEANINGS: Record<CoupleBadge, string> = {
  "Verified Couple": "Both partners joined and verified their e-mail",
  "Beta Member": "One partner has still to join or verify their e-mail",
};

export type BadgeFacts = { status: string; partnerAVerified: boolean; partnerBVerified: boolean };

/** Spec: the verified badge when the couple is active and both partners are verified. */
export function coupleBadge({ status, partnerAVerified, partnerBVerified }: BadgeFacts): CoupleBadge {
  return status === "active" && partnerAVerified && partnerBVerified ? "Verified Couple" : "Beta Member";
}

/**
 * The location text a viewer (lib/safety/visibility.ts) may see. The partners see the place they
 * chose; another couple sees it at the couple's privacy level (full: the place; city: city,
 * region, country; region: region and country; country: the country; hidden: nothing). Without a
 * stored location others see nothing: there is no level to apply to a bare text.
 */
export function shownCoupleLocation(location: NamedPlace | null, viewer: Viewer, ownText: string | null): string | null {
  if (viewer === "own") return placeName(location?.displayLocation ?? ownText) || null;
  if (!location || location.privacyLevel === "hidden") return null;
  return shownName(location) || null;
}

/* The bio's live counter and hint (spec section 2, step 2). */

export type BioTone = "error" | "warning" | "success";

/** Red under 10, amber under 200, green under 800, amber under 950, red from there on. */
export function bioCounterTone(length: number): BioTone {
  if (length < 10) return "error";
  if (length < 200) return "warning";
  if (length < 800) return "success";
  if (length < 950) return "warning";
  return "error";
}

export function bioHint(length: number): string {
  if (length < 10) return "Tell us more about your adventures together...";
  if (length < 100) return "Great start! Keep sharing...";
  return "Perfect! This gives others a real sense of who you are.";
}

export const bioCounterText = (length: number) => `${length}/${BIO_MAX} characters`;

/**
 * A couple's interests as two couples are compared (the directory's Venn and count, discover's
 * score): each joined partner's own list or, when every partner's list is empty, the couple's
 * stored list as its one list. One rule for every comparison.
 */
export function interestLists(partners: readonly (readonly string[])[], stored: readonly string[]): (readonly string[])[] {
  return partners.some((list) => list.length > 0) ? [...partners] : [stored];
}

type Labelled = { value: string; label: string };

/**
 * The couple's interests: the union of both partners' (partner A's first, in their order), each
 * marked `shared` when both partners chose it. `legacy` (the couple's own stored list) fills in
 * for a couple whose partners' lists are empty.
 */
export function coupleInterests(
  partners: readonly (readonly Labelled[])[],
  legacy: readonly Labelled[],
): (Labelled & { shared: boolean })[] {
  const all = partners.flat();
  const union = new Map((all.length > 0 ? all : legacy).map((item) => [item.value, item]));
  const inBoth = (value: string) => partners.length === 2 && partners.every((list) => list.some((item) => item.value === value));
  return [...union.values()].map((item) => ({ ...item, shared: inBoth(item.value) }));
}

/**
 * The settings' one-line preview of the couple's place at `level`: the very rule the profile
 * (shownCoupleLocation) applies for other couples, so the preview never promises what the server
 * does not do.
 */
export function privacyPreview(place: Omit<NamedPlace, "privacyLevel"> | null, level: NamedPlace["privacyLevel"]): string {
  const shown = place ? shownCoupleLocation({ ...place, privacyLevel: level }, "other", null) : null;
  return shown ? `Others see: ${shown}` : "Others see no location";
}

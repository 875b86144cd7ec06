/**
 * Onboarding rules (spec section 5): pure and browser-safe, so the react-hook-form resolver and
 * the server share one copy of every limit and message.
 */
import { z } from "zod";
import { INTEREST_VALUES } from "@/lib/interests/catalogue";

export const OCCUPATION_MAX = 100;
export const LOCATION_NAME_MAX = 300;
export const PLACE_ID_MAX = 300;
export const INTERESTS_MIN = 5;
export const INTERESTS_MAX = 25;
export const COUPLE_NAME_MAX = 100;
export const COUPLE_TYPES_MAX = 3;
export const BIO_MIN = 10;
export const BIO_MAX = 1000;
export const EXTRA_PHOTOS_MAX = 5;

export const MESSAGES = {
  photoRequired: "Please upload your profile photo",
  locationRequired: "Please select a location from the dropdown suggestions",
  occupationRequired: "Occupation is required",
  occupationTooLong: `Occupation must be no more than ${OCCUPATION_MAX} characters`,
  interestsTooFew: `Please select at least ${INTERESTS_MIN} interests`,
  interestsTooMany: `Please select no more than ${INTERESTS_MAX} interests`,
  interestUnknown: "Please select interests from the list",
  coupleNameRequired: "Please enter your couple name",
  coupleNameTooLong: `Couple name must be no more than ${COUPLE_NAME_MAX} characters`,
  mainPhotoRequired: "Please upload a main couple photo",
  coupleTypesTooFew: "Please select at least one adventure style",
  coupleTypesTooMany: `Please select up to ${COUPLE_TYPES_MAX} adventure styles`,
  coupleTypeUnknown: "Please select adventure styles from the list",
  bioTooShort: `Please share more about yourselves (at least ${BIO_MIN} characters)`,
  bioTooLong: `Bio is too long (maximum ${BIO_MAX} characters)`,
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

/** Older values a saved draft may still hold; they are dropped, never sent. */
export const LEGACY_COUPLE_TYPES = ["adventure_first", "homebody_creatives", "wellness_warriors", "social_butterflies", "foodie_explorers", "tech_innovators"] as const;

/** Keeps only current values, once each, in the order given: what a restored draft may show. */
export const currentCoupleTypes = (values: readonly string[]): CoupleType[] =>
  [...new Set(values)].filter((value): value is CoupleType => COUPLE_TYPE_VALUES.includes(value));

/** A form sends "" for an untouched field and may send nothing at all: both read as missing. */
const requiredText = (max: number, required: string, tooLong: string) =>
  z.preprocess((value) => value ?? "", z.string({ error: required }).trim().min(1, required).max(max, tooLong));

/** Picks from a fixed list: each value known, duplicates collapsed before the minimum is checked. */
const picks = (allowed: readonly string[], min: number, max: number, m: { unknown: string; tooFew: string; tooMany: string }) =>
  z
    // More than `max` entries is refused even when some repeat: it also bounds the work done.
    .preprocess((value) => value ?? [], z.array(z.string({ error: m.unknown }), { error: m.tooFew }).max(max, m.tooMany))
    .transform((values) => [...new Set(values.map((value) => value.trim()))])
    .pipe(z.array(z.string().refine((value) => allowed.includes(value), m.unknown)).min(min, m.tooFew));

/** Keys in the spec's check order, so the first issue is the message a user sees first. */
export const step1Schema = z.object({
  locationPlaceId: requiredText(PLACE_ID_MAX, MESSAGES.locationRequired, MESSAGES.locationRequired),
  locationName: requiredText(LOCATION_NAME_MAX, MESSAGES.locationRequired, MESSAGES.locationRequired),
  occupation: requiredText(OCCUPATION_MAX, MESSAGES.occupationRequired, MESSAGES.occupationTooLong),
  interests: picks(INTEREST_VALUES, INTERESTS_MIN, INTERESTS_MAX, {
    unknown: MESSAGES.interestUnknown,
    tooFew: MESSAGES.interestsTooFew,
    tooMany: MESSAGES.interestsTooMany,
  }),
});
export type Step1Input = z.output<typeof step1Schema>;

export const step2Schema = z.object({
  couple_name: requiredText(COUPLE_NAME_MAX, MESSAGES.coupleNameRequired, MESSAGES.coupleNameTooLong),
  coupleTypes: picks(COUPLE_TYPE_VALUES, 1, COUPLE_TYPES_MAX, {
    unknown: MESSAGES.coupleTypeUnknown,
    tooFew: MESSAGES.coupleTypesTooFew,
    tooMany: MESSAGES.coupleTypesTooMany,
  }),
  bio: z.preprocess((value) => value ?? "", z.string({ error: MESSAGES.bioTooShort }).trim().min(BIO_MIN, MESSAGES.bioTooShort).max(BIO_MAX, MESSAGES.bioTooLong)),
});
export type Step2Input = z.output<typeof step2Schema>;

export type CompletionUser = {
  firstName: string | null;
  lastName: string | null;
  dateOfBirth: string | null;
  bio: string | null;
  interests: readonly string[] | null;
  avatarUrl: string | null;
};

/** Spec section 5: 33 for the basics, 33 for any of bio, interests or photo, 34 for an active couple. */
export function profileCompletionPercentage(user: CompletionUser, couple: { status: string } | null): number {
  let percentage = 0;
  if (user.firstName && user.lastName && user.dateOfBirth) percentage += 33;
  if (user.bio?.trim() || (user.interests?.length ?? 0) > 0 || user.avatarUrl) percentage += 33;
  if (couple?.status === "active") percentage += 34;
  return percentage;
}

export const isProfileCompletionDone = (percentage: number) => percentage >= 100;

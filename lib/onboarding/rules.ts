/**
 * Onboarding rules (spec section 5): pure and browser-safe, so the react-hook-form resolver and
 * the server share one copy of every limit and message.
 */
import { z } from "zod";
import { dateOfBirthSchema, nameSchema } from "@/lib/auth/rules";
import { IMAGE_URL_REFUSED_MESSAGE } from "@/lib/images/rules";
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
/** Long enough for any URL this app's storage hands out. */
export const IMAGE_URL_MAX = 2048;

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
  coupleNameControl: "Couple name cannot contain line breaks or control characters",
  mainPhotoRequired: "Please upload a main couple photo",
  coupleTypesTooFew: "Please select at least one adventure style",
  coupleTypesTooMany: `Please select up to ${COUPLE_TYPES_MAX} adventure styles`,
  coupleTypeUnknown: "Please select adventure styles from the list",
  bioTooShort: `Please share more about yourselves (at least ${BIO_MIN} characters)`,
  bioTooLong: `Bio is too long (maximum ${BIO_MAX} characters)`,
  imageNotStored: IMAGE_URL_REFUSED_MESSAGE,
  nothingToUpdate: "Nothing to update",
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

/** Keeps only current values, once each, in the order given: what a restored draft may show. */
export const currentCoupleTypes = (values: readonly string[]): CoupleType[] =>
  [...new Set(values)].filter((value): value is CoupleType => COUPLE_TYPE_VALUES.includes(value));

const requiredString = (max: number, required: string, tooLong: string) => z.string({ error: required }).trim().min(1, required).max(max, tooLong);

/** A form sends "" for an untouched field and may send nothing at all: both read as missing. */
const missingAsEmpty = (value: unknown) => value ?? "";

const requiredText = (max: number, required: string, tooLong: string) => z.preprocess(missingAsEmpty, requiredString(max, required, tooLong));

/** Control characters (line breaks, tabs, escapes, C1 codes): nothing a name shown in e-mails and pages may hold. */
const NO_CONTROL_CHARACTERS = /^\P{Cc}*$/u;

/** Picks from a fixed list: each value known, duplicates collapsed before the minimum is checked. */
const picks = (allowed: readonly string[], min: number, max: number, m: { unknown: string; tooFew: string; tooMany: string }) =>
  z
    // More than `max` entries is refused even when some repeat: it also bounds the work done.
    .preprocess((value) => value ?? [], z.array(z.string({ error: m.unknown }), { error: m.tooFew }).max(max, m.tooMany))
    .transform((values) => [...new Set(values.map((value) => value.trim()))])
    .pipe(z.array(z.string().refine((value) => allowed.includes(value), m.unknown)).min(min, m.tooFew));

const locationField = requiredText(PLACE_ID_MAX, MESSAGES.locationRequired, MESSAGES.locationRequired);
const occupationField = requiredText(OCCUPATION_MAX, MESSAGES.occupationRequired, MESSAGES.occupationTooLong);
const interestsField = picks(INTEREST_VALUES, INTERESTS_MIN, INTERESTS_MAX, {
  unknown: MESSAGES.interestUnknown,
  tooFew: MESSAGES.interestsTooFew,
  tooMany: MESSAGES.interestsTooMany,
});
const coupleNameField = z.preprocess(
  missingAsEmpty,
  requiredString(COUPLE_NAME_MAX, MESSAGES.coupleNameRequired, MESSAGES.coupleNameTooLong).regex(NO_CONTROL_CHARACTERS, MESSAGES.coupleNameControl),
);
const coupleTypesField = picks(COUPLE_TYPE_VALUES, 1, COUPLE_TYPES_MAX, {
  unknown: MESSAGES.coupleTypeUnknown,
  tooFew: MESSAGES.coupleTypesTooFew,
  tooMany: MESSAGES.coupleTypesTooMany,
});
const coupleBioField = z.preprocess(
  missingAsEmpty,
  z.string({ error: MESSAGES.bioTooShort }).trim().min(BIO_MIN, MESSAGES.bioTooShort).max(BIO_MAX, MESSAGES.bioTooLong),
);

/**
 * An image URL as text. Which images the caller may name is the server's check
 * (`assertOwnImageUrls`): only images the caller's own rows show now are accepted.
 */
const imageUrlField = z.string({ error: MESSAGES.imageNotStored }).trim().min(1, MESSAGES.imageNotStored).max(IMAGE_URL_MAX, MESSAGES.imageNotStored);

/** Keys in the spec's check order, so the first issue is the message a user sees first. */
export const step1Schema = z.object({
  locationPlaceId: locationField,
  locationName: requiredText(LOCATION_NAME_MAX, MESSAGES.locationRequired, MESSAGES.locationRequired),
  occupation: occupationField,
  interests: interestsField,
});
export type Step1Input = z.output<typeof step1Schema>;

export const step2Schema = z.object({
  couple_name: coupleNameField,
  coupleTypes: coupleTypesField,
  bio: coupleBioField,
});
export type Step2Input = z.output<typeof step2Schema>;

/** The person's own fields (profile update and profile completion). */
export const userFields = z.object({
  firstName: nameSchema("First name"),
  lastName: nameSchema("Last name"),
  dateOfBirth: dateOfBirthSchema,
  occupation: occupationField,
  bio: z.string({ error: MESSAGES.bioTooLong }).trim().max(BIO_MAX, MESSAGES.bioTooLong),
  avatarUrl: imageUrlField.nullable(),
});

/**
 * A couple's fields (create, update, profile completion). The place is named by its id only:
 * the server resolves it, so a client's location text and coordinates are never stored.
 * Without a place id a new couple takes partner A's place from step 1; without interests, theirs.
 */
export const coupleFields = z.object({
  coupleName: coupleNameField,
  coupleTypes: coupleTypesField,
  bio: coupleBioField,
  placeId: locationField.optional(),
  interests: interestsField.optional(),
  /** The main photo; step 2 uploads it, JSON clients name one they uploaded before. */
  profileImageUrl: imageUrlField.nullable().optional(),
  /** The extra photos; the main one is profileImageUrl. */
  photos: z
    .array(imageUrlField, { error: MESSAGES.imageNotStored })
    .superRefine((photos, ctx) => {
      if (photos.length > EXTRA_PHOTOS_MAX) ctx.addIssue({ code: "custom", message: tooManyPhotosMessage(photos.length) });
    })
    .optional(),
});

/** The spec's clients send both spellings (the helper variant sends couple_name). */
const COUPLE_KEY_ALIASES: Record<string, string> = {
  couple_name: "coupleName",
  couple_types: "coupleTypes",
  place_id: "placeId",
  profile_image_url: "profileImageUrl",
};
/** Renames the aliases; a missing body reads as empty, so each required field names itself. */
const camelCoupleKeys = (body: unknown) =>
  body && typeof body === "object" && !Array.isArray(body)
    ? Object.fromEntries(Object.entries(body).map(([key, value]) => [COUPLE_KEY_ALIASES[key] ?? key, value]))
    : (body ?? {});

/** Keys outside the couple's fields (location text, coordinates, ids) are dropped, never stored. */
export const coupleCreateSchema = z.preprocess(camelCoupleKeys, coupleFields);
export type CoupleCreateInput = z.output<typeof coupleCreateSchema>;

export const coupleUpdateSchema = z.preprocess(
  camelCoupleKeys,
  coupleFields.partial().refine((update) => Object.values(update).some((value) => value !== undefined), MESSAGES.nothingToUpdate),
);
export type CoupleUpdateInput = z.output<typeof coupleUpdateSchema>;

/** POST /api/v2/profile/complete-setup (spec section 3, profile completion payload). */
export const profileCompletionSchema = z.object({
  userData: z.preprocess((value) => value ?? {}, userFields.partial({ bio: true, avatarUrl: true })),
  coupleData: coupleCreateSchema,
});
export type ProfileCompletionInput = z.output<typeof profileCompletionSchema>;

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

/**
 * Onboarding rules (spec section 5): pure and browser-safe, so the react-hook-form resolver and
 * the server share one copy of every limit and message. The fields are shared with the JSON
 * calls' schemas (lib/couples/schemas.ts, lib/profile/rules.ts).
 */
import { z } from "zod";
import { CONTROL_CHARACTER } from "@/lib/auth/rules";
import { COUPLE_TYPE_VALUES, COUPLE_TYPES_MAX } from "@/lib/couples/rules";
import { IMAGE_URL_REFUSED_MESSAGE } from "@/lib/images/rules";
import { INTEREST_VALUES } from "@/lib/interests/catalogue";

export const OCCUPATION_MAX = 100;
export const LOCATION_NAME_MAX = 300;
export const PLACE_ID_MAX = 300;
export const INTERESTS_MIN = 5;
export const INTERESTS_MAX = 25;
export const COUPLE_NAME_MAX = 100;
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

const requiredString = (max: number, required: string, tooLong: string) => z.string({ error: required }).trim().min(1, required).max(max, tooLong);

/** A form sends "" for an untouched field and may send nothing at all: both read as missing. */
const missingAsEmpty = (value: unknown) => value ?? "";

const requiredText = (max: number, required: string, tooLong: string) => z.preprocess(missingAsEmpty, requiredString(max, required, tooLong));

/** Picks from a fixed list: each value known, duplicates collapsed before the minimum is checked. */
const picks = (allowed: readonly string[], min: number, max: number, m: { unknown: string; tooFew: string; tooMany: string }) =>
  z
    // More than `max` entries is refused even when some repeat: it also bounds the work done.
    .preprocess((value) => value ?? [], z.array(z.string({ error: m.unknown }), { error: m.tooFew }).max(max, m.tooMany))
    .transform((values) => [...new Set(values.map((value) => value.trim()))])
    .pipe(z.array(z.string().refine((value) => allowed.includes(value), m.unknown)).min(min, m.tooFew));

export const locationField = requiredText(PLACE_ID_MAX, MESSAGES.locationRequired, MESSAGES.locationRequired);
export const occupationField = requiredText(OCCUPATION_MAX, MESSAGES.occupationRequired, MESSAGES.occupationTooLong);
export const interestsField = picks(INTEREST_VALUES, INTERESTS_MIN, INTERESTS_MAX, {
  unknown: MESSAGES.interestUnknown,
  tooFew: MESSAGES.interestsTooFew,
  tooMany: MESSAGES.interestsTooMany,
});
export const coupleNameField = z.preprocess(
  missingAsEmpty,
  requiredString(COUPLE_NAME_MAX, MESSAGES.coupleNameRequired, MESSAGES.coupleNameTooLong).refine((name) => !CONTROL_CHARACTER.test(name), MESSAGES.coupleNameControl),
);
export const coupleTypesField = picks(COUPLE_TYPE_VALUES, 1, COUPLE_TYPES_MAX, {
  unknown: MESSAGES.coupleTypeUnknown,
  tooFew: MESSAGES.coupleTypesTooFew,
  tooMany: MESSAGES.coupleTypesTooMany,
});
export const coupleBioField = z.preprocess(
  missingAsEmpty,
  z.string({ error: MESSAGES.bioTooShort }).trim().min(BIO_MIN, MESSAGES.bioTooShort).max(BIO_MAX, MESSAGES.bioTooLong),
);

/**
 * An image URL as text. Which images the caller may name is the server's check
 * (`assertOwnImageUrls`): only images the caller's own rows show now are accepted.
 */
export const imageUrlField = z.string({ error: MESSAGES.imageNotStored }).trim().min(1, MESSAGES.imageNotStored).max(IMAGE_URL_MAX, MESSAGES.imageNotStored);

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


/**
 * The couple's fields: each field's schema (shared by the step 2 form and the server) and the
 * JSON calls' schemas (create, update, profile completion). Pure and browser-safe.
 */
import { z } from "zod";
import {
  boundedString,
  trimmedString,
  missingAsEmpty,
  multiLine,
  NOTHING_TO_UPDATE_MESSAGE,
  oneLine,
  picks,
  requiredString,
} from "@/lib/fields";
import { imageUrlField, imageUrlsField } from "@/lib/images/schemas";
import { IMAGE_URL_REFUSED_MESSAGE } from "@/lib/images/rules";
import { interestsField } from "@/lib/interests/schemas";
import { locationField } from "@/lib/locations/schemas";
import {
  BIO_MAX,
  BIO_MIN,
  COUPLE_MESSAGES,
  COUPLE_NAME_MAX,
  COUPLE_TYPE_VALUES,
  COUPLE_TYPES_MAX,
  EXTRA_PHOTOS_MAX,
  tooManyPhotosMessage,
} from "./rules";

export const coupleNameField = z.preprocess(
  missingAsEmpty,
  requiredString(COUPLE_NAME_MAX, COUPLE_MESSAGES.coupleNameRequired, COUPLE_MESSAGES.coupleNameTooLong, COUPLE_MESSAGES.coupleNameControl),
);
export const coupleTypesField = picks(COUPLE_TYPE_VALUES, 1, COUPLE_TYPES_MAX, {
  unknown: COUPLE_MESSAGES.coupleTypeUnknown,
  tooFew: COUPLE_MESSAGES.coupleTypesTooFew,
  tooMany: COUPLE_MESSAGES.coupleTypesTooMany,
});
export const coupleBioField = z.preprocess(
  missingAsEmpty,
  multiLine(
    trimmedString(BIO_MAX, COUPLE_MESSAGES.bioTooLong, COUPLE_MESSAGES.bioTooShort).min(BIO_MIN, COUPLE_MESSAGES.bioTooShort),
    COUPLE_MESSAGES.bioNotAllowed,
  ),
);

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
  /**
   * The extra photos; the main one is profileImageUrl. Counted before each is read: a list of a
   * million entries is one issue, not a million (no work in a request grows faster than its input).
   */
  photos: z
    .array(z.unknown(), { error: IMAGE_URL_REFUSED_MESSAGE })
    .superRefine((photos, ctx) => {
      if (photos.length > EXTRA_PHOTOS_MAX) ctx.addIssue({ code: "custom", message: tooManyPhotosMessage(photos.length) });
    })
    .pipe(imageUrlsField)
    .optional(),
});

/** The spec's clients send both spellings (the helper variant sends couple_name). */
const COUPLE_KEY_ALIASES: Record<string, string> = {
  couple_name: "coupleName",
  couple_types: "coupleTypes",
  place_id: "placeId",
  profile_image_url: "profileImageUrl",
  is_visible: "isVisible",
};
/** Renames the aliases; a missing body reads as empty, so each required field names itself. */
const camelCoupleKeys = (body: unknown) =>
  body && typeof body === "object" && !Array.isArray(body)
    ? Object.fromEntries(Object.entries(body).map(([key, value]) => [COUPLE_KEY_ALIASES[key] ?? key, value]))
    : (body ?? {});

/** Keys outside the couple's fields (location text, coordinates, ids) are dropped, never stored. */
export const coupleCreateSchema = z.preprocess(camelCoupleKeys, coupleFields);
export type CoupleCreateInput = z.output<typeof coupleCreateSchema>;

/** 'Show us in the directory': an update may turn it off and on again; a new couple starts visible. */
export const isVisibleField = z.boolean({ error: "isVisible must be true or false" });

export const coupleUpdateSchema = z.preprocess(
  camelCoupleKeys,
  coupleFields
    .extend({ isVisible: isVisibleField })
    .partial()
    .refine((update) => Object.values(update).some((value) => value !== undefined), NOTHING_TO_UPDATE_MESSAGE),
);
export type CoupleUpdateInput = z.output<typeof coupleUpdateSchema>;

/** PUT /api/couples/update names its target couple in the body beside the fields; none is the caller's own. */
export const coupleUpdateTargetSchema = z.object({
  id: oneLine(boundedString(100, "id must be a couple id"), "id must be a couple id").nullish(),
});

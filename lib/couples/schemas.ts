/**
 * The couple's fields in JSON calls (create, update, profile completion): pure and browser-safe.
 * The step 2 form's rules are the onboarding ones; these add the JSON spellings and image URLs.
 */
import { z } from "zod";
import { coupleBioField, coupleNameField, coupleTypesField, EXTRA_PHOTOS_MAX, imageUrlField, interestsField, locationField, MESSAGES, tooManyPhotosMessage } from "@/lib/onboarding/rules";

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

/** PUT /api/couples/update names its target couple in the body beside the fields; none is the caller's own. */
export const coupleUpdateTargetSchema = z.object({ id: z.string({ error: "id must be a couple id" }).nullish() });

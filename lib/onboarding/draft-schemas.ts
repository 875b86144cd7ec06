/**
 * The onboarding drafts as they are read back from browser storage (spec section 3, drafts):
 * each field falls back to empty on its own, so one bad field does not lose the rest.
 */
import { z } from "zod";
import { currentCoupleTypes } from "@/lib/couples/rules";
import type { PickedPhoto } from "@/lib/images/client/photo";
import type { OnboardingLocation } from "@/lib/locations/client/saved-location";
import { locationDetailsShape } from "@/lib/locations/client/storage-schemas";

const photoSchema = z.object({
  // Only an image the browser itself encoded: a draft never points the preview elsewhere.
  dataUrl: z.string().startsWith("data:image/"),
  name: z.string(),
  size: z.number().nonnegative(),
  width: z.number().positive(),
  height: z.number().positive(),
}) satisfies z.ZodType<PickedPhoto>;

/** A typed location (no place id) is kept too: the step then asks for a suggestion. */
const locationSchema = z.object({
  location: z.string().min(1),
  placeId: z.string(),
  ...locationDetailsShape,
}) satisfies z.ZodType<OnboardingLocation>;

const texts = z.array(z.string());

export const individualDraftSchema = z.object({
  userImage: photoSchema.nullable().catch(null),
  occupation: z.string().catch(""),
  interests: texts.catch([]),
  location: locationSchema.nullable().catch(null),
});

export const coupleDraftSchema = z.object({
  couple_name: z.string().catch(""),
  // Styles renamed since the draft was saved are dropped, never sent.
  coupleTypes: texts.catch([]).transform(currentCoupleTypes),
  bio: z.string().catch(""),
  coupleProfileImage: photoSchema.nullable().catch(null),
  couplePhotos: z.array(photoSchema).catch([]),
});

/**
 * The onboarding forms' drafts (spec section 3, drafts), in the store of
 * lib/onboarding/draft-store.ts (re-exported here): a draft that does not parse is ignored,
 * never trusted.
 */
import { z } from "zod";
import { locationDetailsShape, type OnboardingLocation } from "@/lib/locations/client/saved-location";
import type { PickedPhoto } from "@/lib/images/client/photo";
import { currentCoupleTypes } from "@/lib/couples/rules";
import { draftStore } from "./draft-store";

export * from "./draft-store";

export type IndividualDraft = {
  userImage: PickedPhoto | null;
  occupation: string;
  interests: string[];
  location: OnboardingLocation | null;
};

export type CoupleDraft = {
  couple_name: string;
  coupleTypes: string[];
  bio: string;
  coupleProfileImage: PickedPhoto | null;
  couplePhotos: PickedPhoto[];
};

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

export const individualDraft = draftStore<IndividualDraft>(
  "individual_profile",
  z.object({
    userImage: photoSchema.nullable().catch(null),
    occupation: z.string().catch(""),
    interests: texts.catch([]),
    location: locationSchema.nullable().catch(null),
  }),
  ["userImage"],
);

export const coupleDraft = draftStore<CoupleDraft>(
  "couple_profile",
  z.object({
    couple_name: z.string().catch(""),
    // Styles renamed since the draft was saved are dropped, never sent.
    coupleTypes: texts.catch([]).transform(currentCoupleTypes),
    bio: z.string().catch(""),
    coupleProfileImage: photoSchema.nullable().catch(null),
    couplePhotos: z.array(photoSchema).catch([]),
  }),
  ["coupleProfileImage", "couplePhotos"],
);

/**
 * The onboarding forms' drafts (spec section 3, drafts), in the forms' draft store
 * (lib/forms/draft-store.ts), read back with lib/onboarding/draft-schemas.ts: a draft that does not
 * parse is ignored, never trusted.
 */
import type { OnboardingLocation } from "@/lib/locations/client/saved-location";
import type { PickedPhoto } from "@/lib/images/client/photo";
import { coupleDraftSchema, individualDraftSchema } from "./draft-schemas";
import { draftStore } from "@/lib/forms/draft-store";

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

export const individualDraft = draftStore<IndividualDraft>("individual_profile", individualDraftSchema, ["userImage"]);

export const coupleDraft = draftStore<CoupleDraft>("couple_profile", coupleDraftSchema, ["coupleProfileImage", "couplePhotos"]);

/**
 * The settings' two forms with photos as the browser holds them (the picked photos beside the
 * text): judged by the profile's own schema, and by the onboarding's couple checks under the
 * settings' field names, so each field shows the server's message. Generic over the form's
 * values, which carry browser types (the picked photos) this pure file does not know.
 */
import { z } from "zod";
import { step2Errors } from "@/lib/onboarding/step-checks";
import { profileUpdateSchema } from "@/lib/profile/schemas";
import { interestsToSend } from "./changes";

type ProfileValues = {
  firstName: string;
  lastName: string;
  occupation: string;
  interests: string[];
  /** The interests as saved (what the page loaded, or the last save). */
  savedInterests: string[];
};

/** 'Your profile': the text fields as PUT /api/settings/profile parses them; the photo is the server's to judge. */
export const profileFormSchema = <V extends ProfileValues>() =>
  z.custom<V>().superRefine((values, ctx) => {
    const { firstName, lastName, occupation } = values;
    const parsed = profileUpdateSchema.safeParse({ firstName, lastName, occupation, interests: interestsToSend(values) });
    if (!parsed.success)
      for (const issue of parsed.error.issues) ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
  });

type CoupleValues = {
  coupleName: string;
  bio: string;
  coupleTypes: string[];
  /** The saved main photo, and a new one picked to replace it. */
  profileImageUrl: string | null;
  profileImage: unknown;
  /** The saved photos kept, and the new ones picked. */
  photos: string[];
  newPhotos: unknown[];
};

/** The onboarding's couple checks' field names, as this form (and its server call) names them. */
const COUPLE_FIELDS = {
  couple_name: "coupleName",
  coupleProfileImage: "profileImage",
  coupleTypes: "coupleTypes",
  bio: "bio",
  couplePhotos: "photos",
} as const;

/** 'Couple profile': the onboarding's rules and messages, in their order. */
export const coupleFormSchema = <V extends CoupleValues>() =>
  z.custom<V>().superRefine((values, ctx) => {
    const found = step2Errors({
      couple_name: values.coupleName,
      hasMainPhoto: Boolean(values.profileImageUrl || values.profileImage),
      coupleTypes: values.coupleTypes,
      bio: values.bio,
      extraPhotoCount: values.photos.length + values.newPhotos.length,
    });
    for (const [field, message] of Object.entries(found))
      if (message) ctx.addIssue({ code: "custom", path: [COUPLE_FIELDS[field as keyof typeof COUPLE_FIELDS]], message });
  });

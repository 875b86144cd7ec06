import "server-only";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { couples, users } from "@/db/schema";
import { COUPLE_MESSAGES, EXTRA_PHOTOS_MAX, tooManyPhotosMessage } from "@/lib/couples/rules";
import { coupleExists, insertCouple, markPartnerBComplete, requireIndividualProfile } from "@/lib/couples/service";
import { AppError, userNotFound } from "@/lib/errors";
import { partnerOf } from "@/lib/membership/partner";
import { entityPlace, saveOwnPlace, userPlaceColumns, type ResolvedPlace } from "@/lib/locations/place";
import { placesProvider, type PlacesProvider } from "@/lib/places";
import { LIMITS, spendLimits } from "@/lib/rate-limit";
import type { ImageStorage } from "@/lib/storage";
import { writeWithImages } from "@/lib/images/lifecycle";
import { toUpload } from "@/lib/images/upload";
import { PROFILE_MESSAGES, profileCompletionPercentage } from "@/lib/profile/rules";
import { updateUserRow } from "@/lib/profile/service";
import { selfColumns } from "@/lib/users/projections";
import { parseStep, type Step1Fields, type Step1Images, type Step2Fields, type Step2Images } from "./form";
import { roleOf } from "./router";
import { step1Schema, step2Schema } from "./schemas";

/** Replaceable services, so a test can hand in its own. */
/** What a step depends on: the places and storage services, and the caller's address where the call knows it (a place lookup counts against it). */
export type OnboardingDeps = { places?: PlacesProvider; storage?: ImageStorage; clientAddress?: string };

export type Step1Result = {
  avatarUrl: string;
  occupation: string;
  interests: string[];
  location: Omit<ResolvedPlace, "latitude" | "longitude">;
  /** Partner B's onboarding ends after step 1 (spec section 4, onboarding router). */
  isPartnerB: boolean;
};
export type Step2Result = { coupleId: string; profileCompletionPercentage: number };

/** The spec's check orders (section 5): the first problem found is the message shown. */
const STEP1_ORDER = ["userImage", "locationPlaceId", "locationName", "occupation", "interests"] as const;
const STEP2_ORDER = ["couple_name", "coupleProfileImage", "coupleTypes", "bio", "couplePhotos"] as const;

/** The person as they see themselves, with the coordinates of their saved place (copied to the couple). */
const profileColumns = { ...selfColumns(users), ...userPlaceColumns };

async function loadProfile(db: Db, userId: string) {
  const [user] = await db.select(profileColumns).from(users).where(eq(users.id, userId));
  if (!user) throw userNotFound();
  return user;
}

/**
 * Step 1 (individual profile): photo, occupation, location and interests. The place (the one
 * saved when it was chosen, else the provider's) and the photo are ready before the transaction
 * (both slow); the user row and the user's location row are then written together, and a failed
 * write removes the stored photo. For partner B this
 * completes their part, in the same transaction (spec: verified badge once both are verified).
 * A replaced photo is removed once the new one is saved. It may be sent again at will (a text-only
 * save too), so each try counts against LIMITS.profileSavesPerUser, as a profile save does.
 */
export async function completeStep1(
  db: Db,
  userId: string,
  fields: Step1Fields,
  images: Step1Images,
  deps: OnboardingDeps = {},
): Promise<Step1Result> {
  await spendLimits(db, [[LIMITS.profileSavesPerUser, userId]]);
  const user = await loadProfile(db, userId);
  // The photo may be left out only when one was saved before (the client sends it only when new).
  const input = parseStep(step1Schema, fields, STEP1_ORDER, {
    userImage: images.userImage || user.avatarUrl ? null : PROFILE_MESSAGES.photoRequired,
  });
  const place = await entityPlace(
    db,
    deps.places ?? placesProvider(),
    { entityType: "user", entityId: userId },
    input.locationPlaceId,
    "locationPlaceId",
    { userId, clientAddress: deps.clientAddress },
  );
  const uploads = images.userImage ? [{ bytes: images.userImage, kind: "avatar" as const }] : [];

  return writeWithImages(db, userId, { uploads, storage: deps.storage }, async (tx, stored) => {
    // Only a new photo is written: the one read before this transaction may have been replaced
    // since (another tab), and writing it back would point at a removed file.
    const { row, replacedImages } = await updateUserRow(tx, userId, {
      occupation: input.occupation,
      interests: input.interests,
      ...(stored[0] ? { avatarUrl: stored[0].url } : {}),
    });
    // Step 1 needs a photo: one removed meanwhile is asked for again.
    const avatarUrl = row.avatarUrl;
    if (!avatarUrl)
      throw new AppError("VALIDATION_ERROR", PROFILE_MESSAGES.photoRequired, {
        fieldErrors: { userImage: PROFILE_MESSAGES.photoRequired },
      });
    await saveOwnPlace(tx, { entityType: "user", entityId: userId }, place);
    const isPartnerB = await markPartnerBComplete(tx, userId);
    const { latitude: _lat, longitude: _lng, ...location } = place;
    return {
      result: { avatarUrl, occupation: input.occupation, interests: input.interests, location, isPartnerB },
      replaced: replacedImages,
    };
  });
}

/**
 * Step 2 once the user has a couple. Its partner A is done with it (their save committed and its
 * answer was lost, or another tab finished it): answered as that save was, nothing written again,
 * so the form moves on as after a success. Anyone else (partner B, whose step 2 is not theirs):
 * COUPLE_EXISTS. Null while the user has no couple.
 */
async function step2AlreadyDone(db: Db, userId: string): Promise<Step2Result | null> {
  const [couple] = await db
    .select({ id: couples.id, partner1Id: couples.partner1Id, partner2Id: couples.partner2Id, status: couples.status })
    .from(couples)
    .where(partnerOf(userId));
  if (!couple) return null;
  if (roleOf(userId, couple) !== "partner_a") throw coupleExists(couple.id);
  const user = await loadProfile(db, userId);
  return { coupleId: couple.id, profileCompletionPercentage: profileCompletionPercentage(user, couple) };
}

/**
 * Step 2 (couple profile) for partner A: creates the couple, marks partner A's part complete and
 * makes the couple discoverable (spec section 4). Location and interests come from step 1. The
 * couple row and its location row are written together; a failed write removes the photos it
 * stored and leaves the ones uploaded ahead (`POST /api/uploads`) waiting for the next try.
 * Sent again once the couple exists, or while another try is creating it, it answers as that try
 * did (`step2AlreadyDone`).
 */
export async function completeStep2(
  db: Db,
  userId: string,
  fields: Step2Fields,
  images: Step2Images,
  deps: OnboardingDeps = {},
): Promise<Step2Result> {
  // Before the form is judged: once the couple exists, what this try says changes nothing.
  const done = await step2AlreadyDone(db, userId);
  if (done) return done;
  const extra = images.couplePhotos ?? [];
  const input = parseStep(step2Schema, fields, STEP2_ORDER, {
    coupleProfileImage: images.coupleProfileImage ? null : COUPLE_MESSAGES.mainPhotoRequired,
    couplePhotos: extra.length > EXTRA_PHOTOS_MAX ? tooManyPhotosMessage(extra.length) : null,
  });
  const user = await loadProfile(db, userId);
  const place = requireIndividualProfile(user);

  const uploads = [
    toUpload(images.coupleProfileImage!, "couple-main", "coupleProfileImage"),
    ...extra.map((photo) => toUpload(photo, "couple-photo", "couplePhotos")),
  ];

  try {
    return await writeWithImages(db, userId, { uploads, storage: deps.storage }, async (tx, stored) => {
      const [main, ...photos] = stored;
      const couple = await insertCouple(tx, userId, {
        coupleName: input.couple_name,
        coupleTypes: input.coupleTypes,
        bio: input.bio,
        interests: user.interests,
        photos: photos.map((photo) => photo.url),
        profileImageUrl: main!.url,
        place,
      });
      // A new couple replaces no image.
      return { result: { coupleId: couple.id, profileCompletionPercentage: profileCompletionPercentage(user, couple) }, replaced: [] };
    });
  } catch (error) {
    // Another try of this step (a retry, another tab) created the couple while this one stored its
    // photos (removed again, with the failed write): answered as that try was.
    const done = error instanceof AppError && error.code === "COUPLE_EXISTS" ? await step2AlreadyDone(db, userId) : null;
    if (done) return done;
    throw error;
  }
}

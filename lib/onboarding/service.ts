import "server-only";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { users } from "@/db/schema";
import { coupleIdOf } from "@/lib/couples/profile";
import { coupleExists, insertCouple, markPartnerBComplete } from "@/lib/couples/service";
import { AppError } from "@/lib/errors";
import { placesProvider, type PlacesProvider } from "@/lib/places";
import type { ImageStorage } from "@/lib/storage";
import { resolvePlace, savedPlace, upsertEntityLocation, type ResolvedPlace } from "./place";
import { EXTRA_PHOTOS_MAX, MESSAGES, profileCompletionPercentage, tooManyPhotosMessage, type Step1Input, type Step2Input } from "./rules";
import { storeUploads, withStoredImages } from "./uploads";

/** Replaceable services, so a test can hand in its own. */
export type OnboardingDeps = { places?: PlacesProvider; storage?: ImageStorage };

export type Step1Images = { userImage?: Uint8Array | null };
export type Step2Images = { coupleProfileImage?: Uint8Array | null; couplePhotos?: readonly Uint8Array[] };

export type Step1Result = {
  avatarUrl: string;
  occupation: string;
  interests: string[];
  location: Omit<ResolvedPlace, "latitude" | "longitude">;
  /** Partner B's onboarding ends after step 1 (spec section 4, onboarding router). */
  isPartnerB: boolean;
};
export type Step2Result = { coupleId: string; profileCompletionPercentage: number };

const invalid = (message: string, field: string) => new AppError("VALIDATION_ERROR", message, { fieldErrors: { [field]: message } });

const profileColumns = {
  firstName: users.firstName,
  lastName: users.lastName,
  dateOfBirth: users.dateOfBirth,
  occupation: users.occupation,
  bio: users.bio,
  interests: users.interests,
  avatarUrl: users.avatarUrl,
  location: users.location,
  placeId: users.placeId,
  latitude: users.latitude,
  longitude: users.longitude,
  city: users.city,
  state: users.state,
  country: users.country,
  countryCode: users.countryCode,
};

async function loadProfile(db: Db, userId: string) {
  const [user] = await db.select(profileColumns).from(users).where(eq(users.id, userId));
  if (!user) throw new AppError("USER_NOT_FOUND", "User not found. Please try registering again.");
  return user;
}

/**
 * Step 1 (individual profile): photo, occupation, location and interests. The place is resolved
 * and the photo stored before the transaction (both slow); the user row and the user's location
 * row are then written together, and a failed write removes the stored photo. For partner B this
 * completes their part, in the same transaction (spec: verified badge once both are verified).
 */
export async function completeStep1(db: Db, userId: string, input: Step1Input, images: Step1Images, deps: OnboardingDeps = {}): Promise<Step1Result> {
  const user = await loadProfile(db, userId);
  // The photo may be left out only when one was saved before (the client sends it only when new).
  if (!images.userImage && !user.avatarUrl) throw invalid(MESSAGES.photoRequired, "userImage");
  const place = await resolvePlace(deps.places ?? placesProvider(), input.locationPlaceId);
  const stored = images.userImage ? await storeUploads([{ bytes: images.userImage, kind: "avatar" }], deps.storage) : [];
  const avatarUrl = stored[0]?.url ?? user.avatarUrl!;

  return withStoredImages(stored, deps.storage, () =>
    db.transaction(async (tx) => {
      await tx
        .update(users)
        .set({ occupation: input.occupation, interests: input.interests, avatarUrl, ...place })
        .where(eq(users.id, userId));
      await upsertEntityLocation(tx, "user", userId, place);
      const isPartnerB = await markPartnerBComplete(tx, userId);
      const { latitude: _lat, longitude: _lng, ...location } = place;
      return { avatarUrl, occupation: input.occupation, interests: input.interests, location, isPartnerB };
    }),
  );
}

/**
 * Step 2 (couple profile) for partner A: creates the couple, marks partner A's part complete and
 * makes the couple discoverable (spec section 4). Location and interests come from step 1. The
 * couple row and its location row are written together; a failed write removes the stored photos.
 */
export async function completeStep2(db: Db, userId: string, input: Step2Input, images: Step2Images, deps: OnboardingDeps = {}): Promise<Step2Result> {
  const extra = images.couplePhotos ?? [];
  if (!images.coupleProfileImage) throw invalid(MESSAGES.mainPhotoRequired, "coupleProfileImage");
  if (extra.length > EXTRA_PHOTOS_MAX) throw invalid(tooManyPhotosMessage(extra.length), "couplePhotos");
  const existing = await coupleIdOf(db, userId);
  if (existing) throw coupleExists(existing);
  const user = await loadProfile(db, userId);
  // The couple copies its location from step 1, so step 1 must be done first.
  const place = savedPlace(user);
  if (!place || !user.occupation) throw invalid("Please complete your individual profile first", "_");

  const stored = await storeUploads(
    [{ bytes: images.coupleProfileImage, kind: "couple-main" }, ...extra.map((bytes) => ({ bytes, kind: "couple-photo" as const }))],
    deps.storage,
  );
  const [main, ...photos] = stored;

  return withStoredImages(stored, deps.storage, () =>
    db.transaction(async (tx) => {
      const couple = await insertCouple(tx, userId, {
        coupleName: input.couple_name,
        coupleTypes: input.coupleTypes,
        bio: input.bio,
        interests: user.interests,
        photos: photos.map((photo) => photo.url),
        profileImageUrl: main!.url,
        place,
      });
      return { coupleId: couple.id, profileCompletionPercentage: profileCompletionPercentage(user, couple) };
    }),
  );
}

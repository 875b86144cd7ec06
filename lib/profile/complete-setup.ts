import "server-only";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { users } from "@/db/schema";
import { coupleIdOf } from "@/lib/couples/profile";
import { coupleChangesFrom, insertCouple, newCoupleFrom, writeCoupleChanges, type ChangedCouple, type CoupleDeps, type CoupleRecord } from "@/lib/couples/service";
import { userNotFound } from "@/lib/errors";
import { profileCompletionPercentage, type ProfileCompletionInput } from "@/lib/onboarding/rules";
import { assertStoredImageUrls, discardReplacedImages, replacedImageUrls } from "@/lib/onboarding/uploads";
import { placesProvider } from "@/lib/places";

export type ProfileSetupResult = CoupleRecord & { profileCompletionPercentage: number };

const completionColumns = {
  firstName: users.firstName,
  lastName: users.lastName,
  dateOfBirth: users.dateOfBirth,
  bio: users.bio,
  interests: users.interests,
  avatarUrl: users.avatarUrl,
};

/**
 * POST /api/v2/profile/complete-setup: the person's fields and the couple's in one go. Creates
 * the caller's couple (or changes the one they have) and marks the caller's part complete, all
 * in one transaction; the place is resolved from its id beforehand, never taken from the client.
 * Images the change replaced (avatar, couple photos) are removed once it is saved.
 */
export async function completeProfileSetup(db: Db, userId: string, input: ProfileCompletionInput, deps: CoupleDeps = {}): Promise<ProfileSetupResult> {
  const { userData, coupleData } = input;
  assertStoredImageUrls({
    "userData.avatarUrl": userData.avatarUrl,
    "coupleData.profileImageUrl": coupleData.profileImageUrl,
    "coupleData.photos": coupleData.photos,
  });
  const places = deps.places ?? placesProvider();

  /** The user row and the couple row together, or neither. */
  const save = async (writeCouple: (tx: Db) => Promise<ChangedCouple>) => {
    const { result, replaced } = await db.transaction(async (tx) => {
      const [previous] = await tx.select({ avatarUrl: users.avatarUrl }).from(users).where(eq(users.id, userId)).for("update");
      if (!previous) throw userNotFound();
      const [user] = await tx.update(users).set(userData).where(eq(users.id, userId)).returning(completionColumns);
      const { couple, replacedImages } = await writeCouple(tx);
      return {
        result: { ...couple, profileCompletionPercentage: profileCompletionPercentage(user!, couple) },
        replaced: [...replacedImageUrls([previous.avatarUrl], [user!.avatarUrl]), ...replacedImages],
      };
    });
    await discardReplacedImages(db, replaced, deps.storage);
    return result;
  };

  // The place is resolved (the provider may be slow) before the transaction opens.
  const existingId = await coupleIdOf(db, userId);
  if (existingId) {
    const changes = await coupleChangesFrom(coupleData, places);
    return save((tx) => writeCoupleChanges(tx, userId, existingId, changes, true));
  }
  const couple = await newCoupleFrom(db, userId, coupleData, places);
  return save(async (tx) => ({ couple: await insertCouple(tx, userId, couple), replacedImages: [] }));
}

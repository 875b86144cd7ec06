import "server-only";
import type { Db } from "@/db/client";
import { coupleIdOf } from "@/lib/couples/profile";
import { coupleChangesFrom, insertCouple, newCoupleFrom, writeCoupleChanges, type ChangedCouple, type CoupleDeps, type CoupleRecord } from "@/lib/couples/service";
import { profileCompletionPercentage, type ProfileCompletionInput } from "@/lib/profile/rules";
import { assertOwnImageUrls, discardReplacedImages } from "@/lib/images/lifecycle";
import { placesProvider } from "@/lib/places";
import { updateUserRow } from "./user-row";

export type ProfileSetupResult = CoupleRecord & { profileCompletionPercentage: number };

/**
 * POST /api/v2/profile/complete-setup: the person's fields and the couple's in one go. Creates
 * the caller's couple (or changes the one they have) and marks the caller's part complete, all
 * in one transaction; the place is resolved from its id beforehand, never taken from the client.
 * Images the change replaced (avatar, couple photos) are removed once it is saved.
 */
export async function completeProfileSetup(db: Db, userId: string, input: ProfileCompletionInput, deps: CoupleDeps = {}): Promise<ProfileSetupResult> {
  const { userData, coupleData } = input;
  await assertOwnImageUrls(db, userId, {
    "userData.avatarUrl": userData.avatarUrl,
    "coupleData.profileImageUrl": coupleData.profileImageUrl,
    "coupleData.photos": coupleData.photos,
  });
  const places = deps.places ?? placesProvider();

  /** The user row and the couple row together, or neither. */
  const save = async (writeCouple: (tx: Db) => Promise<ChangedCouple>) => {
    const { result, replaced } = await db.transaction(async (tx) => {
      const user = await updateUserRow(tx, userId, userData);
      const { couple, replacedImages } = await writeCouple(tx);
      return {
        result: { ...couple, profileCompletionPercentage: profileCompletionPercentage(user.row, couple) },
        replaced: [...user.replacedImages, ...replacedImages],
      };
    });
    await discardReplacedImages(db, userId, replaced, deps.storage);
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

import "server-only";
import { LIMITS, spendLimits } from "@/lib/rate-limit";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { users } from "@/db/schema";
import { coupleIdOf } from "@/lib/couples/queries";
import {
  coupleChangesFrom,
  insertCouple,
  newCoupleFrom,
  keepIndividualProfileOfPartnerA,
  writeCoupleChanges,
  type ChangedCouple,
  type CoupleDeps,
  type CoupleRecord,
} from "@/lib/couples/service";
import { userNotFound } from "@/lib/errors";
import { assertOwnImageUrls, assertOwnImageUrlsUntilCommit, replacedImageUrls, writeWithImages } from "@/lib/images/lifecycle";
import { placesProvider } from "@/lib/places";
import type { ImageStorage } from "@/lib/storage";
import { selfColumns } from "@/lib/users/projections";
import { askAgainAfterOwnPhotoChange } from "@/lib/verification/service";
import { profileCompletionPercentage } from "./rules";
import type { ProfileCompletionInput, ProfileUpdate } from "./schemas";

export type UserChanges = Partial<typeof users.$inferInsert>;

/**
 * Changes the user's row inside the caller's transaction, with the photo it replaced (removed by
 * `writeWithImages` once committed); a replaced photo asks for photo verification again. The row is locked first, so of two saves at once each
 * removes the photo the other did not keep. A couple's partner A keeps a photo (keepIndividualProfileOfPartnerA).
 */
export async function updateUserRow(tx: Db, userId: string, changes: UserChanges) {
  const [previous] = await tx.select({ avatarUrl: users.avatarUrl }).from(users).where(eq(users.id, userId)).for("update");
  if (!previous) throw userNotFound();
  const [row] = await tx.update(users).set(changes).where(eq(users.id, userId)).returning(selfColumns(users));
  if (previous.avatarUrl && !row!.avatarUrl) await keepIndividualProfileOfPartnerA(tx, userId);
  // A new photo of one's own is not the one a moderator compared the selfie with: asked again.
  if (row!.avatarUrl !== previous.avatarUrl) await askAgainAfterOwnPhotoChange(tx, userId);
  return { row: row!, replacedImages: replacedImageUrls([previous.avatarUrl], [row!.avatarUrl]) };
}

/**
 * Changes the person's own fields; `avatar` (an uploaded photo, as the settings send it) becomes
 * the new profile photo. An avatar the change replaced is removed once it is saved; an upload
 * whose save failed is removed at once. Each save counts against LIMITS.profileSavesPerUser.
 */
export async function updateProfile(
  db: Db,
  userId: string,
  update: ProfileUpdate,
  storage?: ImageStorage,
  avatar?: Uint8Array | null,
): Promise<void> {
  await spendLimits(db, [[LIMITS.profileSavesPerUser, userId]]);
  const named = { avatarUrl: update.avatarUrl };
  await assertOwnImageUrls(db, userId, named);
  const uploads = avatar ? [{ bytes: avatar, kind: "avatar" as const, field: "avatar" }] : [];
  await writeWithImages(db, userId, { storage, uploads }, async (tx, stored) => {
    await assertOwnImageUrlsUntilCommit(tx, userId, named);
    const { replacedImages } = await updateUserRow(tx, userId, stored[0] ? { ...update, avatarUrl: stored[0].url } : update);
    return { result: undefined, replaced: replacedImages };
  });
}

export type ProfileSetupResult = CoupleRecord & { profileCompletionPercentage: number };

/**
 * POST /api/v2/profile/complete-setup: the person's fields and the couple's in one go. Creates
 * the caller's couple (or changes the one they have) and marks the caller's part complete, all
 * in one transaction; a couple is created only for a caller whose individual profile is done. The
 * place is resolved from its id beforehand, never taken from the client. Images the change
 * replaced (avatar, couple photos) are removed once it is saved. Sent again, it changes them
 * again: each call counts against LIMITS.profileSavesPerUser.
 */
export async function completeProfileSetup(
  db: Db,
  userId: string,
  input: ProfileCompletionInput,
  deps: CoupleDeps = {},
): Promise<ProfileSetupResult> {
  await spendLimits(db, [[LIMITS.profileSavesPerUser, userId]]);
  const { userData, coupleData } = input;
  const named = {
    "userData.avatarUrl": userData.avatarUrl,
    "coupleData.profileImageUrl": coupleData.profileImageUrl,
    "coupleData.photos": coupleData.photos,
  };
  await assertOwnImageUrls(db, userId, named);
  const places = deps.places ?? placesProvider();
  const payer = { userId, clientAddress: deps.clientAddress };

  /** The user row and the couple row together, or neither. */
  const save = (writeCouple: (tx: Db) => Promise<ChangedCouple>) =>
    writeWithImages(db, userId, { storage: deps.storage }, async (tx) => {
      await assertOwnImageUrlsUntilCommit(tx, userId, named);
      const user = await updateUserRow(tx, userId, userData);
      const { couple, replacedImages } = await writeCouple(tx);
      return {
        result: { ...couple, profileCompletionPercentage: profileCompletionPercentage(user.row, couple) },
        replaced: [...user.replacedImages, ...replacedImages],
      };
    });

  // The place is resolved (the provider may be slow) before the transaction opens.
  const existingId = await coupleIdOf(db, userId);
  if (existingId) {
    const changes = await coupleChangesFrom(db, payer, existingId, coupleData, places);
    return save((tx) => writeCoupleChanges(tx, userId, existingId, changes, true));
  }
  const couple = await newCoupleFrom(db, payer, coupleData, places);
  return save(async (tx) => {
    // A new couple is discoverable at once, so partner A's individual profile is done first, as
    // for step 2 and POST /api/v2/couples (spec section 4; `insertCouple` judges it on the user
    // row as this call changed it, its avatar counting), and refused with that change rolled back.
    return { couple: await insertCouple(tx, userId, couple), replacedImages: [] };
  });
}

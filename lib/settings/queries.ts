import "server-only";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { couples, locations, users } from "@/db/schema";
import { partnerOf } from "@/lib/membership/partner";
import { AppError, userNotFound } from "@/lib/errors";
import { selfColumns } from "@/lib/users/projections";
import { DEFAULT_PRIVACY_LEVEL, type PrivacyLevel } from "@/lib/locations/privacy";

/** What the 'Location and privacy' section shows: the couple's place (its parts, for the preview), its level, its visibility. */
export type LocationSettings = {
  coupleId: string;
  place: { placeId: string; displayLocation: string; city: string | null; state: string | null; country: string | null } | null;
  privacyLevel: PrivacyLevel;
  isVisible: boolean;
};

export const noCouple = () => new AppError("NO_COUPLE", "No couple found");

/** The caller's own couple's place and privacy, in one query; NO_COUPLE when they have none. */
export async function loadLocationSettings(db: Db, userId: string): Promise<LocationSettings> {
  const [row] = await db
    .select({
      coupleId: couples.id,
      isVisible: couples.isVisible,
      placeId: locations.placeId,
      displayLocation: locations.displayLocation,
      city: locations.city,
      state: locations.state,
      country: locations.country,
      privacyLevel: locations.privacyLevel,
    })
    .from(couples)
    .leftJoin(locations, and(eq(locations.entityType, "couple"), eq(locations.entityId, couples.id)))
    .where(partnerOf(userId))
    .limit(1);
  if (!row) throw noCouple();
  const { coupleId, isVisible, placeId, displayLocation, city, state, country, privacyLevel } = row;
  return {
    coupleId,
    isVisible,
    place: placeId && displayLocation ? { placeId, displayLocation, city, state, country } : null,
    privacyLevel: privacyLevel ?? DEFAULT_PRIVACY_LEVEL,
  };
}

/** What 'Your profile' edits: the person's own fields, as they see them. */
export type ProfileSettings = { firstName: string; lastName: string; occupation: string; interests: string[]; avatarUrl: string | null };

export async function loadProfileSettings(db: Db, userId: string): Promise<ProfileSettings> {
  const [row] = await db.select(selfColumns(users)).from(users).where(eq(users.id, userId));
  if (!row) throw userNotFound();
  return {
    firstName: row.firstName ?? "",
    lastName: row.lastName ?? "",
    occupation: row.occupation ?? "",
    interests: row.interests ?? [],
    avatarUrl: row.avatarUrl,
  };
}

/** What 'Couple profile' edits: the couple's own fields, for either partner. */
export type CoupleSettings = { coupleName: string; bio: string; coupleTypes: string[]; profileImageUrl: string | null; photos: string[] };

export async function loadCoupleSettings(db: Db, userId: string): Promise<CoupleSettings> {
  const [row] = await db
    .select({
      coupleName: couples.coupleName,
      bio: couples.bio,
      coupleTypes: couples.coupleTypes,
      profileImageUrl: couples.profileImageUrl,
      photos: couples.photos,
    })
    .from(couples)
    .where(partnerOf(userId))
    .limit(1);
  if (!row) throw noCouple();
  return { ...row, bio: row.bio ?? "" };
}

import "server-only";
import { LIMITS, spendLimits } from "@/lib/rate-limit";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { transaction } from "@/db/transaction";
import { couples, users } from "@/db/schema";
import { isProfileComplete } from "@/lib/auth/users";
import { AppError, userNotFound } from "@/lib/errors";
import {
  couplePlaceColumns,
  entityPlace,
  saveEntityLocation,
  savedPlace,
  userPlaceColumns,
  type PlaceColumns,
  type PlacePayer,
} from "@/lib/locations/place";
import { LOCATION_REQUIRED_MESSAGE } from "@/lib/locations/rules";
import { type CoupleCreateInput, type CoupleUpdateInput } from "@/lib/couples/schemas";
import { COUPLE_MESSAGES, EXTRA_PHOTOS_MAX, tooManyPhotosMessage } from "./rules";
import { assertOwnImageUrls, assertOwnImageUrlsUntilCommit, replacedImageUrls, writeWithImages } from "@/lib/images/lifecycle";
import { toUpload, type PhotoInput } from "@/lib/images/upload";
import { createNotification } from "@/lib/notifications/service";
import { partnerUpdatedCoupleProfile } from "@/lib/notifications/types/partner-updated-couple-profile";
import { placesProvider, type PlacesProvider } from "@/lib/places";
import type { ImageStorage } from "@/lib/storage";
import { selfColumns } from "@/lib/users/projections";
import { canonicalId } from "@/lib/fields";
import { coupleIdOf, coupleNotFound } from "./queries";
import { holdPartnersOf, partnerOf } from "@/lib/membership/partner";

/** Replaceable services, so a test can hand in its own. */
/** What a change depends on: the places and storage services, and the caller's address where the call knows it (a place lookup counts against it). */
/** `sessionToken`: the search session a place picked in the settings ends (PlacePayer). */
export type CoupleDeps = { places?: PlacesProvider; storage?: ImageStorage; clientAddress?: string; sessionToken?: string };

/**
 * The settings' form's photo changes, stated as changes: a new main photo and new extra photos
 * (each sent with the form, or uploaded ahead with `POST /api/uploads`), and the extra photos
 * removed. A whole list from the page would drop a photo the partner added since it loaded.
 */
export type CouplePhotoChanges = { main?: PhotoInput | null; extra?: readonly PhotoInput[]; removed?: readonly string[] };

/** The couple as its own partners see it. */
const recordColumns = {
  id: couples.id,
  partner1Id: couples.partner1Id,
  partner2Id: couples.partner2Id,
  coupleName: couples.coupleName,
  bio: couples.bio,
  photos: couples.photos,
  coupleTypes: couples.coupleTypes,
  interests: couples.interests,
  location: couples.location,
  placeId: couples.placeId,
  profileImageUrl: couples.profileImageUrl,
  status: couples.status,
  isVerified: couples.isVerified,
  partnerAVerified: couples.partnerAVerified,
  partnerBVerified: couples.partnerBVerified,
  partnerACompletedAt: couples.partnerACompletedAt,
  isVisible: couples.isVisible,
  canCreatePaidEvents: couples.canCreatePaidEvents,
  createdAt: couples.createdAt,
  updatedAt: couples.updatedAt,
};
export type CoupleRecord = Pick<typeof couples.$inferSelect, keyof typeof recordColumns>;

/** The spec's answer to a second couple: the client retries as an update of the one named. */
export const coupleExists = (existingCoupleId: string) =>
  new AppError("COUPLE_EXISTS", "You already have a couple profile", { body: { existingCoupleId } });

/** A new couple's fields as stored, the place already resolved. */
type NewCouple = {
  coupleName: string;
  coupleTypes: string[];
  bio: string;
  interests: string[];
  photos: string[];
  profileImageUrl: string | null;
  place: PlaceColumns;
};

/** Changes to a couple (undefined: unchanged), the place already resolved. */
type CoupleChanges = Partial<NewCouple & { isVisible: boolean }>;

/**
 * Partner A completing their part (spec: mark profile complete): active, verified and at once
 * discoverable. The couple's verified flag needs partner B's too.
 */
const partnerAComplete = () => ({
  status: "active",
  partnerAVerified: true,
  partnerACompletedAt: new Date(),
  isVisible: true,
  isVerified: sql<boolean>`${couples.partnerBVerified}`,
});

/** Partner B completing their part: the couple is verified once partner A is too. */
const partnerBComplete = () => ({ partnerBVerified: true, isVerified: sql<boolean>`${couples.partnerAVerified}` });

/**
 * Locks the user's row for the rest of the transaction. Everything that makes a user a partner
 * (creating a couple here, joining one in lib/invitations) takes this lock before it checks that
 * the user has no couple yet, so two of them at once run one after the other and the second
 * sees the first's couple: a user is never in two couples.
 */
async function lockUser(tx: Db, userId: string): Promise<void> {
  const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("update");
  if (!user) throw userNotFound();
}

/**
 * Creates the user's couple with the user as partner A, whose part is thereby complete, and
 * its location row. Runs in the caller's transaction. A user already in a couple (as either
 * partner) is refused with COUPLE_EXISTS naming that couple, one whose individual profile is not
 * done (`requireIndividualProfileOf`) with its 400: judged under the user's lock, as the row is
 * now (a photo removed by a save just before counts as gone).
 */
export async function insertCouple(tx: Db, userId: string, couple: NewCouple): Promise<CoupleRecord> {
  await lockUser(tx, userId);
  const existing = await coupleIdOf(tx, userId);
  if (existing) throw coupleExists(existing);
  await requireIndividualProfileOf(tx, userId);
  const { place, ...fields } = couple;
  const [row] = await tx
    .insert(couples)
    // No partner B yet, so not verified.
    .values({ partner1Id: userId, ...fields, ...couplePlaceColumns(place), ...partnerAComplete(), isVerified: false })
    // Backstop for a writer that skipped the lock: the unique partner1 index lets one through.
    .onConflictDoNothing()
    .returning(recordColumns);
  if (!row) throw coupleExists((await coupleIdOf(tx, userId)) ?? "");
  await saveEntityLocation(tx, { entityType: "couple", entityId: row.id }, place);
  return row;
}

const ofPartner = (coupleId: string, userId: string) => and(eq(couples.id, coupleId), partnerOf(userId));

/**
 * The couple's images, when the user is one of its partners; any other id (malformed, missing,
 * someone else's) reads as missing. `lock` holds the row for the caller's transaction.
 */
async function ownCouple(db: Db, userId: string, id: string, lock = false) {
  const coupleId = canonicalId(id);
  if (!coupleId) throw coupleNotFound();
  const query = db
    .select({
      id: couples.id,
      partner1Id: couples.partner1Id,
      partnerACompletedAt: couples.partnerACompletedAt,
      partnerAVerified: couples.partnerAVerified,
      profileImageUrl: couples.profileImageUrl,
      photos: couples.photos,
    })
    .from(couples)
    .where(ofPartner(coupleId, userId));
  const [own] = lock ? await query.for("update") : await query;
  if (!own) throw coupleNotFound();
  return own;
}

/** A couple as changed, with the images the change no longer shows (removed once committed). */
export type ChangedCouple = { couple: CoupleRecord; replacedImages: string[] };

/**
 * Changes a couple the user is a partner of; any other couple reads as missing and stays as it
 * was. Changes that depend on the row (photos added to or removed from the ones it shows) are a
 * function of the row as locked, so a partner's save just before is built on, not undone. With
 * `complete`, the user's own part (A or B) is marked done as well.
 */
export async function writeCoupleChanges(
  tx: Db,
  userId: string,
  coupleId: string,
  changesOf: CoupleChanges | ((locked: { photos: string[] }) => CoupleChanges),
  complete = false,
): Promise<ChangedCouple> {
  const own = await ownCouple(tx, userId, coupleId, true);
  const { place, ...fields } = typeof changesOf === "function" ? changesOf(own) : changesOf;
  // Partner A's part is done once: completing again (the spec's complete-setup, called twice) keeps
  // a couple hidden that hid since, and a sanctioned couple's status. A partner B who became
  // partner A (the first deleted their account) and has not done it yet still does.
  const partnerADone = own.partnerACompletedAt !== null && own.partnerAVerified;
  const completion = !complete ? {} : own.partner1Id !== userId ? partnerBComplete() : partnerADone ? {} : partnerAComplete();
  const [row] = await tx
    .update(couples)
    .set({ ...fields, ...(place ? couplePlaceColumns(place) : {}), ...completion })
    .where(ofPartner(coupleId, userId))
    .returning(recordColumns);
  if (!row) throw coupleNotFound();
  if (place) await saveEntityLocation(tx, { entityType: "couple", entityId: coupleId }, place);
  const replacedImages = replacedImageUrls([own.profileImageUrl, ...own.photos], [row.profileImageUrl, ...row.photos]);
  return { couple: row, replacedImages };
}

/**
 * The one rule of "partner B's part is done": the user is a couple's partner B and their profile
 * is complete (names, occupation, couple name; isProfileComplete). Answers whether they are partner B.
 */
export async function markPartnerBComplete(tx: Db, userId: string): Promise<boolean> {
  const [row] = await tx
    .select({ ...selfColumns(users), coupleId: couples.id, coupleName: couples.coupleName })
    .from(couples)
    .innerJoin(users, eq(users.id, couples.partner2Id))
    .where(eq(couples.partner2Id, userId));
  if (!row) return false;
  if (isProfileComplete(row)) await tx.update(couples).set(partnerBComplete()).where(eq(couples.id, row.coupleId));
  return true;
}

/**
 * A new couple's values from a JSON call: the place chosen now (looked up unless it is the one
 * partner A saved in step 1, `entityPlace`), else the one partner A chose in step 1; the
 * interests sent, else partner A's. Resolved before any transaction (the places provider may be slow).
 */
export async function newCoupleFrom(db: Db, payer: PlacePayer, input: CoupleCreateInput, places: PlacesProvider): Promise<NewCouple> {
  const [user] = await db
    .select({ interests: users.interests, ...userPlaceColumns })
    .from(users)
    .where(eq(users.id, payer.userId));
  if (!user) throw userNotFound();
  const place = input.placeId
    ? await entityPlace(db, places, { entityType: "user", entityId: payer.userId }, input.placeId, "placeId", payer)
    : savedPlace(user);
  if (!place) throw new AppError("VALIDATION_ERROR", LOCATION_REQUIRED_MESSAGE, { fieldErrors: { placeId: LOCATION_REQUIRED_MESSAGE } });
  return {
    coupleName: input.coupleName,
    coupleTypes: input.coupleTypes,
    bio: input.bio,
    interests: input.interests ?? user.interests,
    photos: input.photos ?? [],
    profileImageUrl: input.profileImageUrl ?? null,
    place,
  };
}

/**
 * The changes of a JSON update by `payer` to their couple `coupleId`, its place looked up (on
 * their limits) unless it is the one the couple has saved (`entityPlace`: a save sent twice, or
 * of the same place, is billed once).
 */
export async function coupleChangesFrom(
  db: Db,
  payer: PlacePayer,
  coupleId: string,
  input: CoupleUpdateInput,
  places: PlacesProvider,
): Promise<CoupleChanges> {
  const { placeId, ...fields } = input;
  if (!placeId) return fields;
  return { ...fields, place: await entityPlace(db, places, { entityType: "couple", entityId: coupleId }, placeId, "placeId", payer) };
}

const imagesOf = (input: CoupleUpdateInput) => ({ profileImageUrl: input.profileImageUrl, photos: input.photos });

/**
 * Partner A's individual profile (onboarding step 1: photo, occupation, place) is done before
 * their couple is created, as the couple is discoverable at once (spec section 4): answers the
 * saved place, which step 2's couple copies, and refuses while it is not done.
 */
export function requireIndividualProfile(
  user: { occupation: string | null; avatarUrl: string | null } & Parameters<typeof savedPlace>[0],
): PlaceColumns {
  const place = savedPlace(user);
  if (!place || !user.occupation || !user.avatarUrl) {
    const message = COUPLE_MESSAGES.individualProfileFirst;
    throw new AppError("VALIDATION_ERROR", message, { fieldErrors: { _: message } });
  }
  return place;
}

/** `requireIndividualProfile` on the user's row as `db` reads it (inside a write: as changed so far). */
export async function requireIndividualProfileOf(db: Db, userId: string): Promise<PlaceColumns> {
  const [user] = await db
    .select({ occupation: users.occupation, avatarUrl: users.avatarUrl, ...userPlaceColumns })
    .from(users)
    .where(eq(users.id, userId));
  if (!user) throw userNotFound();
  return requireIndividualProfile(user);
}

/**
 * Inside a write that took the user's photo away, their row locked (lib/profile/service.ts
 * updateUserRow): a couple's partner A keeps the individual profile their couple was created on,
 * as it is discoverable with it (`requireIndividualProfile`), and the write is refused (400,
 * rolled back). A couple created meanwhile locked the row first (`insertCouple`), so it is seen.
 */
export async function keepIndividualProfileOfPartnerA(tx: Db, userId: string): Promise<void> {
  const [couple] = await tx.select({ id: couples.id }).from(couples).where(eq(couples.partner1Id, userId));
  if (couple) await requireIndividualProfileOf(tx, userId);
}

/** POST /api/v2/couples: creates the caller's couple, the caller as partner A, once their individual profile is done (as step 2). */
export async function createCouple(db: Db, userId: string, input: CoupleCreateInput, deps: CoupleDeps = {}): Promise<CoupleRecord> {
  await assertOwnImageUrls(db, userId, imagesOf(input));
  const existing = await coupleIdOf(db, userId);
  if (existing) throw coupleExists(existing);
  await requireIndividualProfileOf(db, userId);
  const couple = await newCoupleFrom(db, { userId, clientAddress: deps.clientAddress }, input, deps.places ?? placesProvider());
  return transaction(db, async (tx) => {
    await assertOwnImageUrlsUntilCommit(tx, userId, imagesOf(input));
    return insertCouple(tx, userId, couple);
  });
}

/** '<First name> updated your couple profile', to the couple's other partner (none yet: nobody). */
async function notifyOtherPartner(tx: Db, userId: string, coupleId: string): Promise<void> {
  const [row] = await tx
    .select({ firstName: users.firstName, coupleName: couples.coupleName, p1: couples.partner1Id, p2: couples.partner2Id })
    .from(couples)
    .innerJoin(users, eq(users.id, userId))
    .where(eq(couples.id, coupleId));
  const other = row && (row.p1 === userId ? row.p2 : row.p1);
  if (!row || !other) return;
  const { type, text } = partnerUpdatedCoupleProfile;
  await createNotification(tx, {
    userId: other,
    type,
    title: text.title(row.firstName),
    message: text.message(row.firstName, row.coupleName),
    actorUserId: userId,
    actorCoupleId: coupleId,
  });
}

/**
 * The extra photos a save keeps: the list a JSON call names (the photos as they should be), else
 * those `current` shows less the ones the form removed (a photo added since the page loaded stays).
 */
function keptPhotos(current: readonly string[], input: CoupleUpdateInput, removed: readonly string[]): string[] {
  if (input.photos) return [...input.photos];
  const gone = new Set(removed);
  return current.filter((url) => !gone.has(url));
}

/** Spec: up to 5 photos besides the main one, counted with the new ones. */
function assertPhotoCount(count: number): void {
  if (count <= EXTRA_PHOTOS_MAX) return;
  const message = tooManyPhotosMessage(count);
  throw new AppError("VALIDATION_ERROR", message, { fieldErrors: { photos: message } });
}

/**
 * PUT /api/v2/couples/{id} and PUT /api/couples/update: changes the caller's couple. Without an
 * id, the caller's own couple is meant (NO_COUPLE when there is none); an id that is not the
 * caller's couple reads as missing, whether it exists or not. Whose couple it is is checked
 * before the place is looked up (the places provider bills each lookup). The photos are worked
 * out on the couple's locked row (the form's `photos` changes add to and remove from it), and
 * images the change replaced are removed once it is saved. `notifyPartner` (the settings'
 * 'Couple profile' form) tells the other partner, in the same transaction. Each save counts
 * against LIMITS.profileSavesPerUser.
 */
export async function updateCouple(
  db: Db,
  userId: string,
  coupleId: string | null,
  input: CoupleUpdateInput,
  deps: CoupleDeps & { photos?: CouplePhotoChanges; notifyPartner?: boolean } = {},
): Promise<CoupleRecord> {
  await spendLimits(db, [[LIMITS.profileSavesPerUser, userId]]);
  await assertOwnImageUrls(db, userId, imagesOf(input));
  const target = coupleId ?? (await coupleIdOf(db, userId));
  if (!target) throw new AppError("NO_COUPLE", "No couple found to update");
  const own = await ownCouple(db, userId, target);
  const main = deps.photos?.main ?? null;
  const extra = deps.photos?.extra ?? [];
  const removed = deps.photos?.removed ?? [];
  // Counted first on the row as read, so a save sure to be refused stores no photo; counted again
  // on the locked row below, where a partner's photos saved meanwhile count too.
  assertPhotoCount(keptPhotos(own.photos, input, removed).length + extra.length);
  const changes = await coupleChangesFrom(
    db,
    { userId, clientAddress: deps.clientAddress, sessionToken: deps.sessionToken },
    own.id,
    input,
    deps.places ?? placesProvider(),
  );
  const uploads = [
    ...(main ? [toUpload(main, "couple-main", "profileImage")] : []),
    ...extra.map((photo) => toUpload(photo, "couple-photo", "newPhotos")),
  ];
  const photosChange = input.photos !== undefined || removed.length > 0 || extra.length > 0;
  return writeWithImages(db, userId, { storage: deps.storage, uploads }, async (tx, stored) => {
    await assertOwnImageUrlsUntilCommit(tx, userId, imagesOf(input));
    const [newMain, ...newExtra] = main ? stored : [undefined, ...stored];
    const onLocked = (locked: { photos: string[] }): CoupleChanges => {
      const photos = [...keptPhotos(locked.photos, input, removed), ...newExtra.map((image) => image!.url)];
      if (photosChange) assertPhotoCount(photos.length);
      return { ...changes, ...(photosChange ? { photos } : {}), ...(newMain ? { profileImageUrl: newMain.url } : {}) };
    };
    // The partner told holds their row before the couple's is locked (holdPartnersOf).
    if (deps.notifyPartner) await holdPartnersOf(tx, own.id);
    // The id as the database spells it, whichever case the caller wrote it in.
    const { couple, replacedImages } = await writeCoupleChanges(tx, userId, own.id, onLocked);
    if (deps.notifyPartner) await notifyOtherPartner(tx, userId, own.id);
    return { result: couple, replaced: replacedImages };
  });
}

import "server-only";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { transaction } from "@/db/transaction";
import { couples, locations } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { placesProvider, type PlacesProvider } from "@/lib/places";
import { LIMITS, spendLimits } from "@/lib/rate-limit";
import { assertCanWrite, placeViewer, type Actor } from "./access";
import { entityPlace, keepRowPlace, locationColumns, saveOwnPlace } from "./place";
import { shapeLocation, type NormalizedLocation } from "./privacy";
import type { EntityRef, NormalizeInput, PrivacyInput } from "./schemas";

const notFound = () => new AppError("NOT_FOUND", "No location found");

const ofEntity = (entity: EntityRef) => and(eq(locations.entityType, entity.entityType), eq(locations.entityId, entity.entityId));

/**
 * Resolves a chosen place through the provider (the client's text is never trusted) and saves
 * it as the entity's one location, its own row (a person's, a couple's) naming it too
 * (`saveOwnPlace`, as onboarding step 1 and a couple's update keep them), at the level given or
 * (left out) the one it has. The answer is shaped like any other read. The lookup counts against
 * the caller's limits, their address's too; the place the entity has saved is not looked up
 * again (`entityPlace`: a save sent twice, or of the same place, is billed once). Every save,
 * that one too (a write, which may change the level), counts against LIMITS.locationSettingsPerUser
 * as a level changed or a place removed does.
 */
export async function normalizeLocation(
  db: Db,
  input: NormalizeInput,
  actor: Actor,
  context: { clientAddress: string },
  places: PlacesProvider = placesProvider(),
): Promise<NormalizedLocation> {
  await spendLimits(db, [[LIMITS.locationSettingsPerUser, actor.userId]]);
  await assertCanWrite(db, input, actor);
  const payer = { userId: actor.userId, ...context, sessionToken: input.sessionToken };
  const place = await entityPlace(db, places, input, input.placeId, "place_id", payer);
  const row = await transaction(db, (tx) => saveOwnPlace(tx, input, place, input.privacyLevel));
  return shapeLocation(row, "own")!;
}

/** A new privacy level for the entity's place; counts against LIMITS.locationSettingsPerUser. */
export async function setPrivacy(db: Db, input: PrivacyInput, actor: Actor): Promise<NormalizedLocation> {
  await spendLimits(db, [[LIMITS.locationSettingsPerUser, actor.userId]]);
  await assertCanWrite(db, input, actor);
  const row = await transaction(db, async (tx) => {
    // A couple's row before its place's: the place's update changes the couple's row too (its search
    // text and match time, migration 0017's trigger), and every save of the couple's place (its
    // update, normalize, its last partner's deletion) takes the couple first; the other way round,
    // the two deadlocked.
    if (input.entityType === "couple")
      await tx.select({ id: couples.id }).from(couples).where(eq(couples.id, input.entityId)).for("no key update");
    const [updated] = await tx
      .update(locations)
      .set({ privacyLevel: input.privacyLevel, updatedAt: new Date() })
      .where(ofEntity(input))
      .returning(locationColumns);
    return updated;
  });
  if (!row) throw notFound();
  return shapeLocation(row, "own")!;
}

/**
 * A place as `actor` may see it: a person's to themself and their partner, a couple's to its
 * partners and, at its privacy level, to others while it is discoverable to them. Anything else
 * (and a hidden place for others) reads exactly like a missing one: ids are not probed.
 */
export async function getLocation(db: Db, entity: EntityRef, actor: Actor): Promise<NormalizedLocation> {
  const viewer = await placeViewer(db, entity, actor);
  if (!viewer) throw notFound();
  const [row] = await db.select(locationColumns).from(locations).where(ofEntity(entity)).limit(1);
  const shaped = row && shapeLocation(row, viewer);
  if (!shaped) throw notFound();
  return shaped;
}

/**
 * Deletes the entity's location; its own row (a person's, a couple's) then names no place either
 * (`keepRowPlace`). Counts against LIMITS.locationSettingsPerUser.
 */
export async function deleteLocation(db: Db, entity: EntityRef, actor: Actor): Promise<void> {
  await spendLimits(db, [[LIMITS.locationSettingsPerUser, actor.userId]]);
  await assertCanWrite(db, entity, actor);
  await transaction(db, async (tx) => {
    await keepRowPlace(tx, entity, null);
    const deleted = await tx.delete(locations).where(ofEntity(entity)).returning({ id: locations.id });
    if (deleted.length === 0) throw notFound();
  });
}

import "server-only";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { locations } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { placesProvider, PlacesServiceError, type PlaceDetails, type PlacesProvider } from "@/lib/places";
import { assertCanWrite, canWrite, type Actor } from "./access";
import { shapeLocation, type NormalizedLocation } from "./privacy";
import type { EntityRef, NormalizeInput, PrivacyInput } from "./schemas";

/** Explicit columns: what shaping needs, nothing more. */
const columns = {
  id: locations.id,
  placeId: locations.placeId,
  displayLocation: locations.displayLocation,
  latitude: locations.latitude,
  longitude: locations.longitude,
  city: locations.city,
  state: locations.state,
  country: locations.country,
  privacyLevel: locations.privacyLevel,
  createdAt: locations.createdAt,
  updatedAt: locations.updatedAt,
};

const notFound = () => new AppError("NOT_FOUND", "No location found");

const ofEntity = (entity: EntityRef) => and(eq(locations.entityType, entity.entityType), eq(locations.entityId, entity.entityId));

const invalidPlace = () =>
  new AppError("INVALID_LOCATION_DATA", "The location data is invalid. Please select your location again.", {
    fieldErrors: { place_id: "Unknown place" },
  });

/** Section 5: details without usable geometry are rejected. */
async function resolvePlace(places: PlacesProvider, placeId: string): Promise<PlaceDetails> {
  let details: PlaceDetails | null;
  try {
    details = await places.details(placeId);
  } catch (error) {
    if (!(error instanceof PlacesServiceError)) throw error;
    console.error("[locations] places provider failed", error.message);
    throw new AppError("PLACES_SERVICE_FAILED", "Unable to get location details from the maps service. Please try selecting your location again.");
  }
  const point = details?.geometry.location;
  if (!details || !point || !Number.isFinite(point.lat) || !Number.isFinite(point.lng)) throw invalidPlace();
  return details;
}

/**
 * Resolves a chosen place through the provider (the client's text is never trusted) and saves
 * it as the entity's one location. The answer is shaped like any other read.
 */
export async function normalizeLocation(db: Db, input: NormalizeInput, actor: Actor, places: PlacesProvider = placesProvider()): Promise<NormalizedLocation> {
  await assertCanWrite(db, input, actor);
  const place = await resolvePlace(places, input.placeId);
  const values = {
    placeId: place.place_id,
    displayLocation: place.formatted_address || place.name,
    latitude: place.geometry.location.lat,
    longitude: place.geometry.location.lng,
    city: place.city,
    state: place.state,
    country: place.country,
    countryCode: place.countryCode,
    privacyLevel: input.privacyLevel,
  };
  const [row] = await db
    .insert(locations)
    .values({ entityType: input.entityType, entityId: input.entityId, ...values })
    .onConflictDoUpdate({ target: [locations.entityType, locations.entityId], set: { ...values, updatedAt: new Date() } })
    .returning(columns);
  return shapeLocation(row!, "owner")!;
}

export async function setPrivacy(db: Db, input: PrivacyInput, actor: Actor): Promise<NormalizedLocation> {
  await assertCanWrite(db, input, actor);
  const [row] = await db.update(locations).set({ privacyLevel: input.privacyLevel, updatedAt: new Date() }).where(ofEntity(input)).returning(columns);
  if (!row) throw notFound();
  return shapeLocation(row, "owner")!;
}

/** Anyone signed in may read; what they see depends on whether the location is theirs. */
export async function getLocation(db: Db, entity: EntityRef, actor: Actor): Promise<NormalizedLocation> {
  const [row] = await db.select(columns).from(locations).where(ofEntity(entity)).limit(1);
  if (!row) throw notFound();
  // A hidden location reads exactly like a missing one to anyone but its owner.
  const shaped = shapeLocation(row, (await canWrite(db, entity, actor)) ? "owner" : "other");
  if (!shaped) throw notFound();
  return shaped;
}

export async function deleteLocation(db: Db, entity: EntityRef, actor: Actor): Promise<void> {
  await assertCanWrite(db, entity, actor);
  const deleted = await db.delete(locations).where(ofEntity(entity)).returning({ id: locations.id });
  if (deleted.length === 0) throw notFound();
}

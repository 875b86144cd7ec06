import "server-only";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { couples, locations, users } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { VANISHED_MESSAGE } from "@/lib/http/errors";
import { PlacesServiceError, type PlaceDetails, type PlacesProvider } from "@/lib/places";
import { LIMITS, spendLimits } from "@/lib/rate-limit";
import type { PrivacyLevel } from "./privacy";
import type { EntityRef } from "./schemas";

/** The location columns users, couples and the locations table share. */
export type PlaceColumns = {
  location: string;
  placeId: string;
  latitude: number | null;
  longitude: number | null;
  city: string | null;
  state: string | null;
  country: string | null;
  countryCode: string | null;
};

/** A user's saved place (step 1), as columns of the users table. */
export const userPlaceColumns = {
  location: users.location,
  placeId: users.placeId,
  latitude: users.latitude,
  longitude: users.longitude,
  city: users.city,
  state: users.state,
  country: users.country,
  countryCode: users.countryCode,
};

/**
 * The place a couple's own row names beside its `locations` row (what its partners' profile and
 * /auth/me answer): every writer of a couple's place writes both, none when it has none.
 */
export const couplePlaceColumns = (place: PlaceColumns | null) => ({ location: place?.location ?? null, placeId: place?.placeId ?? null });

type SavedPlace = { [K in keyof PlaceColumns]: PlaceColumns[K] | null };

/** The place a person's own row names (`userPlaceColumns`, which a new couple copies): all of it, or none. */
const userPlaceValues = (place: PlaceColumns | null): SavedPlace => ({
  location: place?.location ?? null,
  placeId: place?.placeId ?? null,
  latitude: place?.latitude ?? null,
  longitude: place?.longitude ?? null,
  city: place?.city ?? null,
  state: place?.state ?? null,
  country: place?.country ?? null,
  countryCode: place?.countryCode ?? null,
});

/**
 * The entity's own row (a couple's `couplePlaceColumns`, a person's `userPlaceColumns`) in step
 * with its `locations` row, in the caller's transaction: none when it has none. Answers whether
 * the row is there (false: the entity is gone, its account's deletion committed meanwhile).
 */
export async function keepRowPlace(db: Db, entity: EntityRef, place: PlaceColumns | null): Promise<boolean> {
  const kept =
    entity.entityType === "couple"
      ? await db.update(couples).set(couplePlaceColumns(place)).where(eq(couples.id, entity.entityId)).returning({ id: couples.id })
      : await db.update(users).set(userPlaceValues(place)).where(eq(users.id, entity.entityId)).returning({ id: users.id });
  return kept.length > 0;
}

/** The place saved on a row (a user's from step 1), or null when none was chosen. */
export function savedPlace(row: SavedPlace): PlaceColumns | null {
  const { location, placeId, latitude, longitude, city, state, country, countryCode } = row;
  return location && placeId ? { location, placeId, latitude, longitude, city, state, country, countryCode } : null;
}

/** A place fresh from the provider always has coordinates. */
export type ResolvedPlace = PlaceColumns & { latitude: number; longitude: number };

/**
 * Who pays for a billed lookup: the signed-in person, and the address they call from where the call
 * knows it. `sessionToken`: the search session the pick ends, billed with it; it is the browser's
 * word, so it only ever reaches the provider, never the limits.
 */
export type PlacePayer = { userId: string; clientAddress?: string; sessionToken?: string };

/**
 * The provider's details of a chosen place id, every caller's one way to them: each Place Details
 * call is billed, so it counts against the payer's limits first (LIMITS.placeLookupPerUser, and
 * placeLookupPerAddress when the address is known). Null when the id is unknown or its geometry
 * unusable; a provider's failure is the spec's PLACES_SERVICE_FAILED.
 */
export async function lookupPlaceDetails(db: Db, places: PlacesProvider, placeId: string, payer: PlacePayer): Promise<PlaceDetails | null> {
  await spendLimits(db, [
    [LIMITS.placeLookupPerUser, payer.userId],
    ...(payer.clientAddress ? ([[LIMITS.placeLookupPerAddress, payer.clientAddress]] as const) : []),
  ]);
  let details;
  try {
    details = await places.details(placeId, payer.sessionToken);
  } catch (error) {
    if (!(error instanceof PlacesServiceError)) throw error;
    console.error("[locations] places provider failed", error.message);
    throw new AppError(
      "PLACES_SERVICE_FAILED",
      "Unable to get location details from the maps service. Please try selecting your location again.",
    );
  }
  const point = details?.geometry.location;
  return details && point && Number.isFinite(point.lat) && Number.isFinite(point.lng) ? details : null;
}

/**
 * A chosen place id looked up (lookupPlaceDetails) as location columns: the client's text and
 * coordinates are never trusted. Unknown ids and details without usable geometry are refused
 * (spec section 5), the refusal named on `field`, the caller's name for the place id.
 */
export async function lookupPlace(
  db: Db,
  places: PlacesProvider,
  placeId: string,
  field: string,
  payer: PlacePayer,
): Promise<ResolvedPlace> {
  const details = await lookupPlaceDetails(db, places, placeId, payer);
  if (!details) {
    throw new AppError("INVALID_LOCATION_DATA", "The location data is invalid. Please select your location again.", {
      fieldErrors: { [field]: "Unknown place" },
    });
  }
  return {
    location: details.formatted_address || details.name,
    placeId: details.place_id,
    latitude: details.geometry.location.lat,
    longitude: details.geometry.location.lng,
    city: details.city,
    state: details.state,
    country: details.country,
    countryCode: details.countryCode,
  };
}

/**
 * The entity's place: its own `locations` row when that names `placeId` (choosing a place
 * resolved and saved it a moment ago; a save sent twice, or of the place it has), else looked up
 * for `payer`. A place is looked up, and billed, once. Every save of an entity's place asks here.
 */
export async function entityPlace(
  db: Db,
  places: PlacesProvider,
  entity: EntityRef,
  placeId: string,
  field: string,
  payer: PlacePayer,
): Promise<ResolvedPlace> {
  const [row] = await db
    .select({
      location: locations.displayLocation,
      placeId: locations.placeId,
      latitude: locations.latitude,
      longitude: locations.longitude,
      city: locations.city,
      state: locations.state,
      country: locations.country,
      countryCode: locations.countryCode,
    })
    .from(locations)
    .where(and(eq(locations.entityType, entity.entityType), eq(locations.entityId, entity.entityId)));
  if (row?.placeId === placeId && row.latitude !== null && row.longitude !== null)
    return { ...row, latitude: row.latitude, longitude: row.longitude };
  return lookupPlace(db, places, placeId, field, payer);
}

/**
 * A couple's place as a list of cards reads it (the directory, discover, the dashboard's cards):
 * what its card names at the privacy level and the point it is measured at; a card never shows
 * the place id or the row's times, so a list does not read them.
 */
export const listedPlaceColumns = {
  id: locations.id,
  displayLocation: locations.displayLocation,
  latitude: locations.latitude,
  longitude: locations.longitude,
  city: locations.city,
  state: locations.state,
  country: locations.country,
  privacyLevel: locations.privacyLevel,
};

/** A `locations` row as every read shapes it (lib/locations/privacy shapeLocation): nothing more. */
export const locationColumns = {
  ...listedPlaceColumns,
  placeId: locations.placeId,
  createdAt: locations.createdAt,
  updatedAt: locations.updatedAt,
};

/**
 * The one writer of an entity's one `locations` row. A new row gets the level given, else the
 * default (city); an existing row keeps the level its owner chose unless one is given.
 */
export async function saveEntityLocation(db: Db, entity: EntityRef, place: PlaceColumns, privacyLevel?: PrivacyLevel) {
  const { location, ...rest } = place;
  const values = { ...rest, displayLocation: location, ...(privacyLevel ? { privacyLevel } : {}) };
  const [row] = await db
    .insert(locations)
    .values({ entityType: entity.entityType, entityId: entity.entityId, ...values })
    .onConflictDoUpdate({ target: [locations.entityType, locations.entityId], set: { ...values, updatedAt: sql`now()` } })
    .returning(locationColumns);
  return row!;
}

/**
 * A place chosen for a person (onboarding step 1, POST /api/locations/normalize) or a couple
 * (the same call): its `locations` row and its own row's columns together (`keepRowPlace`), in the
 * caller's transaction.
 */
export async function saveOwnPlace(db: Db, entity: EntityRef, place: PlaceColumns, privacyLevel?: PrivacyLevel) {
  // `locations` has no foreign key to its entity: the own row's update waits for a deletion under
  // way, and an entity it took keeps no place (its exact point), as a vanished reference answers.
  if (!(await keepRowPlace(db, entity, place))) throw new AppError("NOT_FOUND", VANISHED_MESSAGE);
  return saveEntityLocation(db, entity, place, privacyLevel);
}

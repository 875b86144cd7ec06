import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { locations } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { PlacesServiceError, type PlacesProvider } from "@/lib/places";

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

type SavedPlace = { [K in keyof PlaceColumns]: PlaceColumns[K] | null };

/** The place saved on a row (a user's from step 1), or null when none was chosen. */
export function savedPlace(row: SavedPlace): PlaceColumns | null {
  const { location, placeId, latitude, longitude, city, state, country, countryCode } = row;
  return location && placeId ? { location, placeId, latitude, longitude, city, state, country, countryCode } : null;
}

/** A place fresh from the provider always has coordinates. */
export type ResolvedPlace = PlaceColumns & { latitude: number; longitude: number };

/**
 * Resolves the chosen place id through the provider: the client's text and coordinates are never
 * trusted. Unknown ids and details without usable geometry are refused (spec section 5).
 */
export async function resolvePlace(places: PlacesProvider, placeId: string): Promise<ResolvedPlace> {
  let details;
  try {
    details = await places.details(placeId);
  } catch (error) {
    if (!(error instanceof PlacesServiceError)) throw error;
    console.error("[onboarding] places provider failed", error.message);
    throw new AppError("PLACES_SERVICE_FAILED", "Unable to get location details from the maps service. Please try selecting your location again.");
  }
  const point = details?.geometry.location;
  if (!details || !point || !Number.isFinite(point.lat) || !Number.isFinite(point.lng)) {
    throw new AppError("INVALID_LOCATION_DATA", "The location data is invalid. Please select your location again.", {
      fieldErrors: { locationPlaceId: "Unknown place" },
    });
  }
  return {
    location: details.formatted_address || details.name,
    placeId: details.place_id,
    latitude: point.lat,
    longitude: point.lng,
    city: details.city,
    state: details.state,
    country: details.country,
    countryCode: details.countryCode,
  };
}

/**
 * Saves the entity's one `locations` row. A new row gets the default privacy level (city); an
 * existing row keeps the level its owner chose.
 */
export async function upsertEntityLocation(db: Db, entityType: "user" | "couple", entityId: string, place: PlaceColumns): Promise<void> {
  const { location, ...rest } = place;
  const values = { ...rest, displayLocation: location };
  await db
    .insert(locations)
    .values({ entityType, entityId, ...values })
    .onConflictDoUpdate({ target: [locations.entityType, locations.entityId], set: { ...values, updatedAt: sql`now()` } });
}

import "server-only";
import type { Db } from "@/db/client";
import { AppError } from "@/lib/errors";
import { LIMITS, spendLimits } from "@/lib/rate-limit";
import { placesProvider, PlacesServiceError, type PlacesProvider, type Prediction } from "@/lib/places";
import { isSearchable, searchFailureMessage } from "./rules";
import type { SearchQuery } from "./schemas";

/**
 * Section 5: shorter than 2 characters (after trimming) is no search at all, not an error; nor is
 * a query without a letter or digit (isSearchable).
 */
export async function searchPlaces(input: SearchQuery, places: PlacesProvider = placesProvider()): Promise<Prediction[]> {
  if (!isSearchable(input.query)) return [];
  try {
    return await places.autocomplete(input.query, input.limit, input.sessionToken);
  } catch (error) {
    if (!(error instanceof PlacesServiceError)) throw error;
    console.error("[locations] places search failed", error.message);
    throw new AppError("PLACES_SERVICE_FAILED", searchFailureMessage("unavailable"));
  }
}

/**
 * GET /api/locations/search/public: the search, each call counted against the caller's address
 * (LIMITS.placeSearchPerAddress, placeSearchPerAddressHourly): anyone may call it, and with Google
 * each search is billed.
 */
export async function publicPlaceSearch(
  db: Db,
  input: SearchQuery,
  context: { clientAddress: string },
  places: PlacesProvider = placesProvider(),
): Promise<Prediction[]> {
  await spendLimits(db, [
    [LIMITS.placeSearchPerAddress, context.clientAddress],
    [LIMITS.placeSearchPerAddressHourly, context.clientAddress],
  ]);
  return searchPlaces(input, places);
}

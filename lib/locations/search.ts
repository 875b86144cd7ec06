import "server-only";
import { AppError } from "@/lib/errors";
import { placesProvider, PlacesServiceError, type PlacesProvider, type Prediction } from "@/lib/places";
import { SEARCH_MIN_QUERY, searchFailureMessage } from "./rules";
import type { SearchQuery } from "./schemas";

/** Section 5: shorter than 2 characters (after trimming) is no search at all, not an error. */
export async function searchPlaces(input: SearchQuery, places: PlacesProvider = placesProvider()): Promise<Prediction[]> {
  if (input.query.length < SEARCH_MIN_QUERY) return [];
  try {
    return await places.autocomplete(input.query, input.limit);
  } catch (error) {
    if (!(error instanceof PlacesServiceError)) throw error;
    console.error("[locations] places search failed", error.message);
    throw new AppError("PLACES_SERVICE_FAILED", searchFailureMessage("unavailable"));
  }
}

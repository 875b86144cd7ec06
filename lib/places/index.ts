import "server-only";
import { env } from "@/lib/env";
import { gazetteerProvider, isGazetteerPlaceId } from "./gazetteer";
import { googlePlacesProvider } from "./google";
import type { PlacesProvider } from "./types";

export type { PlaceDetails, PlacesProvider, Prediction } from "./types";
export { PlacesServiceError } from "./types";

/**
 * The one place the provider is picked: Google when GOOGLE_MAPS_API_KEY is set, otherwise the
 * offline gazetteer. Ids of the form geonames:<id> (seed data, places saved before a key was
 * configured) always resolve through the gazetteer, so switching providers keeps them valid.
 */
function pick(): PlacesProvider {
  const key = env().GOOGLE_MAPS_API_KEY;
  if (!key) return gazetteerProvider;
  const google = googlePlacesProvider(key);
  return {
    name: "google",
    autocomplete: (query, limit, sessionToken) => google.autocomplete(query, limit, sessionToken),
    details: (placeId, sessionToken) =>
      isGazetteerPlaceId(placeId) ? gazetteerProvider.details(placeId) : google.details(placeId, sessionToken),
  };
}

let chosen: PlacesProvider | undefined;

export function placesProvider(): PlacesProvider {
  chosen ??= pick();
  return chosen;
}

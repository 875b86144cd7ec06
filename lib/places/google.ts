import "server-only";
import { AutocompleteResponse, DetailsResponse } from "./google-schemas";
import { PlacesServiceError, type PlaceDetails, type PlacesProvider, type Prediction } from "./types";

/**
 * Google Places API (New) web service: autocomplete and place details with a server key.
 * Not exercised by the tests (no network here); the responses are parsed (google-schemas.ts) so
 * a change on Google's side fails loudly instead of leaking undefined into our shapes.
 */
const BASE = "https://places.googleapis.com/v1";
const TIMEOUT_MS = 10_000;

async function call(apiKey: string, path: string, init: RequestInit & { fieldMask?: string }): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set("X-Goog-Api-Key", apiKey);
  if (init.fieldMask) headers.set("X-Goog-FieldMask", init.fieldMask);
  try {
    return await fetch(`${BASE}${path}`, { ...init, headers, signal: AbortSignal.timeout(TIMEOUT_MS), cache: "no-store" });
  } catch (error) {
    throw new PlacesServiceError(`Places service failed: ${error instanceof Error ? error.message : "network error"}`);
  }
}

export function googlePlacesProvider(apiKey: string): PlacesProvider {
  return {
    name: "google",
    async autocomplete(query, limit): Promise<Prediction[]> {
      const res = await call(apiKey, "/places:autocomplete", {
        method: "POST",
        headers: { "content-type": "application/json" },
        // (cities) matches what the product asks for: where a couple lives, not a street address.
        body: JSON.stringify({ input: query, includedPrimaryTypes: ["(cities)"], languageCode: "en" }),
      });
      if (!res.ok) throw new PlacesServiceError(`Places service failed: ${res.status}`);
      const parsed = AutocompleteResponse.parse(await res.json());
      return parsed.suggestions
        .flatMap((s) => (s.placePrediction ? [s.placePrediction] : []))
        .slice(0, limit)
        .map((p) => ({
          place_id: p.placeId,
          description: p.text?.text ?? "",
          structured_formatting: {
            main_text: p.structuredFormat?.mainText?.text ?? p.text?.text ?? "",
            secondary_text: p.structuredFormat?.secondaryText?.text ?? "",
          },
        }));
    },
    async details(placeId): Promise<PlaceDetails | null> {
      const res = await call(apiKey, `/places/${encodeURIComponent(placeId)}?languageCode=en`, {
        method: "GET",
        fieldMask: "id,displayName,formattedAddress,location,addressComponents",
      });
      if (res.status === 404 || res.status === 400) return null; // unknown or malformed id
      if (!res.ok) throw new PlacesServiceError(`Places service failed: ${res.status}`);
      const place = DetailsResponse.parse(await res.json());
      if (!place.location) throw new PlacesServiceError("Place details missing geometry information");
      const component = (type: string) => place.addressComponents.find((c) => c.types.includes(type));
      const country = component("country");
      return {
        place_id: place.id,
        formatted_address: place.formattedAddress ?? place.displayName?.text ?? "",
        name: place.displayName?.text ?? place.formattedAddress ?? "",
        geometry: { location: { lat: place.location.latitude, lng: place.location.longitude } },
        city: (component("locality") ?? component("postal_town") ?? component("administrative_area_level_2"))?.longText ?? null,
        state: component("administrative_area_level_1")?.longText ?? null,
        country: country?.longText ?? null,
        countryCode: country?.shortText ?? null,
      };
    },
  };
}

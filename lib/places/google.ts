import "server-only";
import type { z } from "zod";
import { AutocompleteResponse, DetailsResponse, ErrorResponse } from "./google-schemas";
import { PlacesServiceError, type PlaceDetails, type PlacesProvider, type Prediction } from "./types";

/**
 * Google Places API (New) web service: autocomplete and place details with a server key.
 * The responses are parsed (google-schemas.ts) so a change on Google's side fails as the
 * service failing (PLACES_SERVICE_FAILED) instead of leaking undefined into our shapes; the tests
 * answer in Google's place (tests/unit/places-google.test.ts), there is no network here.
 */
const BASE = "https://places.googleapis.com/v1";
const TIMEOUT_MS = 10_000;
/**
 * The place's own name (displayName) with its address: a Pro field, which also makes the session's
 * keystrokes before the pick free (Places API (New) "Session pricing"), where an Essentials mask
 * would leave up to 12 of them billed; the name is never guessed from the address.
 */
const DETAILS_FIELDS = "id,displayName,formattedAddress,location,addressComponents";

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

/**
 * The answer's body read as `schema`: a body cut off (the timeout also covers reading it), not
 * JSON (a proxy's error page) or of another shape is the service failing, as an error status is.
 */
async function body<S extends z.ZodType>(res: Response, schema: S): Promise<z.output<S>> {
  let json: unknown;
  try {
    json = await res.json();
  } catch (error) {
    throw new PlacesServiceError(`Places service failed: ${error instanceof Error ? error.name : "unreadable answer"}`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new PlacesServiceError("Places service failed: unexpected answer");
  return parsed.data;
}

/** A 400 names a bad place id, unless Google says the key is at fault (invalid, expired, not allowed). */
async function keyRejected(res: Response): Promise<boolean> {
  const parsed = ErrorResponse.safeParse(await res.json().catch(() => null));
  return parsed.success && parsed.data.error.details.some((detail) => detail.reason?.startsWith("API_KEY") ?? false);
}

export function googlePlacesProvider(apiKey: string): PlacesProvider {
  return {
    name: "google",
    async autocomplete(query, limit, sessionToken): Promise<Prediction[]> {
      const res = await call(apiKey, "/places:autocomplete", {
        method: "POST",
        headers: { "content-type": "application/json" },
        // (cities) matches what the product asks for: where a couple lives, not a street address.
        // The session token groups this search's keystrokes with the details call of the pick into
        // one billed session (Places API (New) "Session tokens"); without one each call is billed alone.
        body: JSON.stringify({
          input: query,
          includedPrimaryTypes: ["(cities)"],
          languageCode: "en",
          ...(sessionToken && { sessionToken }),
        }),
      });
      if (!res.ok) throw new PlacesServiceError(`Places service failed: ${res.status}`);
      const parsed = await body(res, AutocompleteResponse);
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
    async details(placeId, sessionToken): Promise<PlaceDetails | null> {
      const params = new URLSearchParams({ languageCode: "en", ...(sessionToken && { sessionToken }) });
      const res = await call(apiKey, `/places/${encodeURIComponent(placeId)}?${params}`, { method: "GET", fieldMask: DETAILS_FIELDS });
      if (res.status === 404) return null; // unknown id
      if (res.status === 400 && !(await keyRejected(res))) return null; // malformed id
      if (!res.ok) throw new PlacesServiceError(`Places service failed: ${res.status}`);
      const place = await body(res, DetailsResponse);
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

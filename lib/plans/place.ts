import "server-only";
import tzLookup from "@photostructure/tz-lookup";
import { AppError } from "@/lib/errors";
import { PlacesServiceError, placesProvider } from "@/lib/places";
import { PLAN_TEXTS } from "./rules";
import { knownTimeZone } from "./time";

/** `placeId` null: typed by hand. */
export type PlanPlace = { placeId: string | null; name: string; city: string | null; country: string | null; timeZone: string };

/**
 * The zone of a point. Neither place provider names one (the offline gazetteer's GeoNames cities
 * carry coordinates only), so it comes from the coordinates, through tz-lookup's maintained map
 * of the zones' borders; a name the runtime's zone data does not know is refused, never guessed.
 */
export function zoneAt(latitude: number, longitude: number): string | null {
  let zone: string;
  try {
    zone = tzLookup(latitude, longitude);
  } catch {
    return null;
  }
  return knownTimeZone(zone);
}

/**
 * A place typed by hand while the place search is down (the form offers it as onboarding's
 * location field does): its name as typed and the zone the person chose, checked against the
 * runtime's zone data, since no coordinates can give one.
 */
export function typedPlace(name: string, typedZone: string): PlanPlace {
  const timeZone = knownTimeZone(typedZone);
  if (!timeZone)
    throw new AppError("VALIDATION_ERROR", PLAN_TEXTS.typedZoneUnknown, { fieldErrors: { timeZone: PLAN_TEXTS.typedZoneUnknown } });
  return { placeId: null, name, city: null, country: null, timeZone };
}

/** Where the input says: a place from the search, else one typed by hand (the schemas ask for one of the two). */
export const inputPlace = (input: { placeId?: string | null; placeName?: string | null; timeZone?: string | null }) =>
  input.placeId ? resolvePlanPlace(input.placeId) : typedPlace(input.placeName ?? "", input.timeZone ?? "");

const unknownPlace = () => new AppError("VALIDATION_ERROR", PLAN_TEXTS.placeUnknown, { fieldErrors: { placeId: PLAN_TEXTS.placeUnknown } });

/**
 * A chosen place (an id from the place search: a venue or an address with Google, a city with the
 * gazetteer) with its zone: the client's words about it are never trusted. A provider's failure
 * is the place search's 502, as everywhere a place is chosen.
 */
export async function resolvePlanPlace(placeId: string): Promise<PlanPlace> {
  let details;
  try {
    details = await placesProvider().details(placeId);
  } catch (error) {
    if (!(error instanceof PlacesServiceError)) throw error;
    console.error("[plans] places provider failed", error.message);
    throw new AppError("PLACES_SERVICE_FAILED", "Unable to get the place from the maps service. Please choose it again.");
  }
  const point = details?.geometry.location;
  if (!details || !point || !Number.isFinite(point.lat) || !Number.isFinite(point.lng)) throw unknownPlace();
  const timeZone = zoneAt(point.lat, point.lng);
  if (!timeZone) throw new AppError("VALIDATION_ERROR", PLAN_TEXTS.zoneUnknown, { fieldErrors: { placeId: PLAN_TEXTS.zoneUnknown } });
  return {
    placeId: details.place_id,
    name: details.name || details.formatted_address,
    city: details.city,
    country: details.country,
    timeZone,
  };
}

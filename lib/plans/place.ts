import "server-only";
import tzLookup from "@photostructure/tz-lookup";
import type { Db } from "@/db/client";
import { AppError } from "@/lib/errors";
import { lookupPlaceDetails, type PlacePayer } from "@/lib/locations/place";
import { placesProvider, type PlacesProvider } from "@/lib/places";
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
export const inputPlace = (
  db: Db,
  input: { placeId?: string | null; placeName?: string | null; timeZone?: string | null },
  payer: PlacePayer,
  places: PlacesProvider = placesProvider(),
) => (input.placeId ? resolvePlanPlace(db, places, input.placeId, payer) : typedPlace(input.placeName ?? "", input.timeZone ?? ""));

const unknownPlace = () => new AppError("VALIDATION_ERROR", PLAN_TEXTS.placeUnknown, { fieldErrors: { placeId: PLAN_TEXTS.placeUnknown } });

/**
 * A chosen place (an id from the place search: a venue or an address with Google, a city with the
 * gazetteer) with its zone: the client's words about it are never trusted. Looked up as everywhere
 * a place is chosen (lookupPlaceDetails): billed, so counted against the payer's place lookups.
 */
async function resolvePlanPlace(db: Db, places: PlacesProvider, placeId: string, payer: PlacePayer): Promise<PlanPlace> {
  const details = await lookupPlaceDetails(db, places, placeId, payer);
  if (!details) throw unknownPlace();
  const timeZone = zoneAt(details.geometry.location.lat, details.geometry.location.lng);
  if (!timeZone) throw new AppError("VALIDATION_ERROR", PLAN_TEXTS.zoneUnknown, { fieldErrors: { placeId: PLAN_TEXTS.zoneUnknown } });
  return {
    placeId: details.place_id,
    name: details.name || details.formatted_address,
    city: details.city,
    country: details.country,
    timeZone,
  };
}

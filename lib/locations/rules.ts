/**
 * The locations' limits and messages, pure and browser-safe (lib/locations/schemas.ts builds the
 * schemas from them), so the browser's search field and forms ship no zod.
 */
export const PLACE_ID_MAX = 300;
export const LOCATION_NAME_MAX = 300;
export const LOCATION_REQUIRED_MESSAGE = "Please select a location from the dropdown suggestions";

/** Section 9: searches start at 2 characters and show 5 suggestions. */
export const SEARCH_MIN_QUERY = 2;
export const SEARCH_DEFAULT_LIMIT = 5;
export const SEARCH_MAX_LIMIT = 10;
export const SEARCH_MAX_QUERY = 100;
/** A query with no letter or digit ("!!") names no place: it is answered with nothing, never sent to a provider. */
export const isSearchable = (query: string) => query.length >= SEARCH_MIN_QUERY && /[\p{L}\p{N}]/u.test(query);
export const NEARBY_DEFAULT_RADIUS_KM = 50;
/** Bounds what one nearby query can reveal (a continent is not "nearby"); the per-caller limit bounds how many. */
export const NEARBY_MAX_RADIUS_KM = 200;
export const NEARBY_DEFAULT_LIMIT = 20;
export const NEARBY_MAX_LIMIT = 50;

export type SearchFailureReason = "network" | "unavailable" | "other";

const SEARCH_FAILURE_TEXTS: Record<SearchFailureReason, string> = {
  network: "Please check your internet connection.",
  unavailable: "The service is temporarily unavailable. Please try again later.",
  other: "Please type your location manually or try again.",
};

/** Spec section 8: 'Unable to search locations. ' and why; the server and the browser say the same. */
export const searchFailureMessage = (reason: SearchFailureReason) => `Unable to search locations. ${SEARCH_FAILURE_TEXTS[reason]}`;
